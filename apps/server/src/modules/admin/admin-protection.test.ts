/**
 * A player's protection in the console: staff read the limits and every break; only an admin ends
 * a self-exclusion early, with a reason, writing exactly one audit row in the same transaction (a
 * refused end writes none); a cool-off cannot be ended early.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, type AdminPlayerProtection } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';

let t: TestApp;
let admin: string;
let staff: string;
let bobby: number;
let alice: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.operatorLogin('admin', 'admin1234');
  staff = await t.operatorLogin('staff1', 'staff1234');
  const ids = await t.ctx.db.query<{ id: number; username: string }>(
    "SELECT id, username FROM players WHERE username IN ('bobby', 'alice')",
  );
  bobby = ids.rows.find((r) => r.username === 'bobby')!.id;
  alice = ids.rows.find((r) => r.username === 'alice')!.id;
  const { limits, breaks } = t.ctx.protection;
  await limits.update(bobby, [{ key: 'deposit_day', value: 5_000 }]);
  // A raise waits for the delay and the player's confirmation: staff see it pending.
  await limits.update(bobby, [{ key: 'deposit_day', value: 9_000 }]);
  await breaks.take(bobby, 'self_exclusion_6m');
  await breaks.take(alice, 'cool_off_24h');
});
afterAll(() => t?.close());

const auditRows = async () =>
  (
    await t.ctx.db.query<{
      actor: string;
      action: string;
      target: string;
      before: unknown;
      after: unknown;
      reason: string;
    }>('SELECT * FROM audit_log ORDER BY seq')
  ).rows;
const read = (token: string, playerId: number) =>
  t.app.inject({ url: `/api/admin/players/${playerId}/protection`, headers: t.auth(token) });
const end = (token: string, playerId: number, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/players/${playerId}/end-self-exclusion`,
    headers: t.auth(token),
    payload,
  });
const signIn = (username: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password: `${username}1234` } });

describe("a player's protection in the console", () => {
  it('staff read every limit as it applies now and every break', async () => {
    const response = await read(staff, bobby);
    expect(response.statusCode).toBe(200);
    const body = response.json<AdminPlayerProtection>();
    expect(body.limits.map((l) => l.key)).toEqual([
      'deposit_day',
      'deposit_week',
      'deposit_month',
      'loss_day',
      'loss_week',
      'loss_month',
      'session_minutes',
    ]);
    expect(body.limits[0]).toMatchObject({
      key: 'deposit_day',
      value: 5_000,
      used: 0,
      pending: { value: 9_000 },
    });
    expect(body.limits[0]!.resetsAt).not.toBeNull();
    expect(body.breaks).toEqual([
      expect.objectContaining({
        kind: 'self_exclusion',
        period: 'self_exclusion_6m',
        active: true,
        endedEarlyAt: null,
        endedBy: null,
        endReason: null,
      }),
    ]);
    expect((await read(staff, 999_999)).json()).toMatchObject({ status: false, code: Code.NotFound });
  });

  it('staff get 403 40304 on ending a self-exclusion, and nothing is written', async () => {
    const rowsBefore = (await auditRows()).length;
    const refused = await end(staff, bobby, { reason: 'asked at the desk' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: Code.RoleNotAllowed });
    expect(await auditRows()).toHaveLength(rowsBefore);
    expect((await signIn('bobby')).json()).toMatchObject({ code: Code.SelfExcluded });
  });

  it('a missing or blank reason is 40003 and writes no row', async () => {
    const rowsBefore = (await auditRows()).length;
    for (const payload of [{}, { reason: '   ' }]) {
      const refused = await end(admin, bobby, payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ status: false, code: Code.ReasonRequired });
    }
    expect(await auditRows()).toHaveLength(rowsBefore);
    expect((await read(staff, bobby)).json<AdminPlayerProtection>().breaks[0]).toMatchObject({
      active: true,
    });
  });

  it('a cool-off cannot be ended early: 40400, no row, the player still refused', async () => {
    const rowsBefore = (await auditRows()).length;
    const refused = await end(admin, alice, { reason: 'asked nicely' });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: Code.NotFound });
    expect(await auditRows()).toHaveLength(rowsBefore);
    expect((await signIn('alice')).json()).toMatchObject({ code: Code.CoolingOff });
  });

  it('an admin ends the self-exclusion with one audit row (who, the break before, ended after, why); the player signs in again', async () => {
    const rowsBefore = (await auditRows()).length;
    const ended = await end(admin, bobby, { reason: 'court order 17/2026' });
    expect(ended.statusCode).toBe(200);
    const [latest] = ended.json<AdminPlayerProtection>().breaks;
    expect(latest).toMatchObject({
      kind: 'self_exclusion',
      active: false,
      endedBy: 'admin',
      endReason: 'court order 17/2026',
    });
    expect(latest!.endedEarlyAt).not.toBeNull();

    const added = (await auditRows()).slice(rowsBefore);
    expect(added).toEqual([
      expect.objectContaining({
        actor: 'operator:admin',
        action: 'player.end-self-exclusion',
        target: `player:${bobby}`,
        reason: 'court order 17/2026',
        before: expect.objectContaining({
          id: latest!.id,
          kind: 'self_exclusion',
          active: true,
          endedEarlyAt: null,
        }),
        after: expect.objectContaining({
          id: latest!.id,
          active: false,
          endedEarlyAt: latest!.endedEarlyAt,
          endedBy: 'admin',
        }),
      }),
    ]);
    expect((await signIn('bobby')).statusCode).toBe(200);

    // Nothing is in force any more: a second end is 40400 and writes nothing.
    expect((await end(admin, bobby, { reason: 'again' })).json()).toMatchObject({ code: Code.NotFound });
    expect(await auditRows()).toHaveLength(rowsBefore + 1);
  });
});
