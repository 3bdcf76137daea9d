/**
 * A cabinet learns its brand (and the FPS setting) when it authenticates; its lobby stills become
 * the machine's computed image path, with the brand's art when there is no recent still; the
 * paytable endpoint answers the cabinets' own tables.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandArt, computeDesignMath, machineImagePath, PaytableResponse, SNAPSHOT_SIZE, type MachineProfile } from '@reel/protocol';
import { createTestApp, writeSettings, type TestApp } from '../../../test/helper.js';
import { SlotMachine } from '../../../../cabinet/src/game/machine.js';
import { AgentClient } from '../../../../cabinet/src/agent/agent-client.js';
import { LobbySnapshots } from '../../../../cabinet/src/media/lobby-snapshots.js';

let t: TestApp;
let agentUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  agentUrl = `${address.replace('http', 'ws')}/ws/agent`;
});
afterAll(() => t.close());

const until = async (pred: () => boolean | Promise<boolean>, timeoutMs = 5000) => {
  const t0 = Date.now();
  while (!(await pred())) {
    if (Date.now() - t0 > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function machineOf(brand: string) {
  const { rows } = await t.ctx.db.query<{ id: number; name: string }>(
    'SELECT m.id, m.name FROM machines m JOIN brands b ON b.id = m.brand_id WHERE b.name = $1 ORDER BY m.id LIMIT 1',
    [brand],
  );
  return rows[0]!;
}

describe('machine profile and lobby pictures', () => {
  it("tells each cabinet its own brand and the FPS setting, and serves its stills as the machine's picture", async () => {
    writeSettings(t.ctx, { FPS: 24 });
    const keys = JSON.parse(fs.readFileSync(path.join(t.ctx.config.dataDir, 'machine-keys.json'), 'utf8')) as Record<string, string>;
    const fruit = await machineOf('Fruit Palace');
    const golden = await machineOf('Golden Reels');

    // Before any still: the brand's art, as SVG, with the brand's title.
    const before = await t.app.inject({ method: 'GET', url: `/api/machine/${fruit.id}/image` });
    expect(before.statusCode).toBe(200);
    expect(before.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(before.body).toContain('FRUIT PALACE');
    expect(before.body).toContain(brandArt('Fruit Palace').marquee[0]);

    const machines = [fruit, golden].map((m) => new SlotMachine({ machineId: m.id }));
    const agent = new AgentClient({
      url: agentUrl,
      agentId: 'art-test',
      machines: machines.map((machine) => ({ machine, key: keys[String(machine.machineId)]!, stream: null, videoType: 'screen' as const, bands: [] })),
    });
    const profiles = new Map<number, MachineProfile>();
    const snapshots = new LobbySnapshots(machines, agent, 60_000);
    agent.on('profile', (id, profile) => {
      profiles.set(id, profile);
      snapshots.setArt(id, brandArt(profile.brand));
      void snapshots.take(id);
    });
    agent.start();
    try {
      await until(() => profiles.size === 2);
      // Let the server's meter check of both machines finish before they leave again.
      await until(() => [fruit.id, golden.id].every((id) => t.ctx.sessions.machineView(id).cabinetState === 'idle'), 10_000);
      expect(profiles.get(fruit.id)).toEqual({ name: fruit.name, brand: 'Fruit Palace', fps: 24 });
      expect(profiles.get(golden.id)).toEqual({ name: golden.name, brand: 'Golden Reels', fps: 24 });
      // The lobby lists the bands at that rate too (bandsAtFps: 1200 kbps at 30 fps → 960 at 24).
      const all = (await t.app.inject({ method: 'GET', url: '/api/machine/all', headers: t.auth(await t.login()) })).json();
      expect(all[0].machines[0].bands.map((b: { id: string; fps: number; bitrateKbps: number }) => [b.id, b.fps, b.bitrateKbps])).toEqual([
        ['high', 24, 960],
        ['low', 24, 320],
      ]);

      await until(async () => (await t.app.inject({ method: 'GET', url: `/api/machine/${fruit.id}/image` })).headers['content-type'] === 'image/jpeg');
      const still = await t.app.inject({ method: 'GET', url: `/api/machine/${fruit.id}/image` });
      expect(still.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(still.headers['cache-control']).toBe('public, max-age=5');
      await until(async () => (await t.ctx.db.query('SELECT 1 FROM machine_snapshots')).rowCount === 2);
      expect(SNAPSHOT_SIZE).toEqual({ width: 320, height: 180 });
    } finally {
      snapshots.stop();
      await agent.stop();
      for (const m of machines) m.dispose();
      writeSettings(t.ctx, {});
    }
    // A stale still is not shown: the brand's art again.
    await t.ctx.db.query("UPDATE machine_snapshots SET taken_at = now() - interval '1 hour'");
    expect((await t.app.inject({ method: 'GET', url: `/api/machine/${fruit.id}/image` })).headers['content-type']).toMatch(/^image\/svg/);
    expect((await t.app.inject({ method: 'GET', url: '/api/machine/99999/image' })).statusCode).toBe(404);
  });

  it("computes a machine's image path from the API base unless the operator set an image", () => {
    expect(machineImagePath('/api/', { id: 7, image: null })).toBe('/api/machine/7/image');
    expect(machineImagePath('https://api.example.com/v1', { id: 7, image: null })).toBe('https://api.example.com/v1/machine/7/image');
    expect(machineImagePath('/api/', { id: 7, image: '/custom.png' })).toBe('/custom.png');
  });
});

describe('GET /api/machine/paytable', () => {
  it("answers the cabinets' own tables and exact design RTP, in the published schema", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/machine/paytable' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Value.Check(PaytableResponse, body)).toBe(true);
    expect(body).toMatchObject({ status: true, code: 20000, reels: 5, rows: 3, lines: 20 });
    expect(body.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(['WILD', 'SEVEN', 'BAR', 'BELL', 'MELON', 'PLUM', 'ORANGE', 'LEMON', 'CHERRY', 'STAR']);
    expect(body.symbols[0]).toMatchObject({ kind: 'wild', pays: [25, 100, 500] });
    expect(body.symbols[9]).toMatchObject({ kind: 'scatter', pays: [2, 10, 50] });
    expect(body.freeSpins).toEqual({ trigger: 3, award: 10, multiplier: 2, retrigger: true });
    expect(body.paylines).toHaveLength(20);
    // apps/cabinet/README.md: total design RTP 95.517 %.
    expect(body.rtp.total).toBeCloseTo(computeDesignMath().totalRtp, 12);
    expect(Math.round(body.rtp.total * 100_000) / 1000).toBe(95.517);
    const spec = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(spec.paths['/api/machine/paytable']?.get).toBeDefined();
  });
});
