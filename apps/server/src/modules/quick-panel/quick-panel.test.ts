import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPath, Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';

let t: TestApp;
const path = `/api${ApiPath.quickPanelData.replace(/^\/api/, '')}`;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/quick-panel/data', () => {
  it('answers the events and notes for everyone plus only the own ones', async () => {
    const { rows } = await t.ctx.db.query<{ id: number; username: string }>(
      "SELECT id, username FROM players WHERE username IN ('demo', 'alice')",
    );
    const demoId = rows.find((p) => p.username === 'demo')!.id;
    const aliceId = rows.find((p) => p.username === 'alice')!.id;
    await t.ctx.db.query(
      `INSERT INTO quick_panel_items (player_id, kind, title, detail) VALUES
         ($1, 'note', 'Your limit', 'Daily limit 500.00'), ($2, 'event', 'Alice only', 'private')`,
      [demoId, aliceId],
    );

    const response = await t.app.inject({ method: 'GET', url: path, headers: t.auth(await t.login()) });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['events', 'notes']);
    // Only real events: the demo's "Happy hour" was never implemented and is gone.
    expect(body.events.map((e: { title: string }) => e.title)).toEqual(['New machines']);
    expect(body.notes.map((e: { title: string }) => e.title)).toEqual([
      'Responsible play',
      'Support',
      'Your limit',
    ]);
    expect(body.events[0]).toEqual({
      id: expect.any(String),
      title: 'New machines',
      detail: 'Four Fruit Palace cabinets joined the floor',
    });
    expect(JSON.stringify(body)).not.toContain('Alice only');

    const alice = (
      await t.app.inject({ method: 'GET', url: path, headers: t.auth(await t.login('alice', 'alice1234')) })
    ).json();
    expect(alice.events.map((e: { title: string }) => e.title)).toContain('Alice only');
    expect(JSON.stringify(alice)).not.toContain('Your limit');
  });

  it('answers 401 with 40102 without a valid token', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: 'Basic ZGVtbzpkZW1vMTIzNA==' },
    ]) {
      const response = await t.app.inject({ method: 'GET', url: path, headers });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe(Code.InvalidAccessToken);
    }
  });
});
