/**
 * Autoplay plays on the cabinet by itself: the game that crosses a loss limit, or is stored once the
 * reality check is due, turns it off on the cabinet, and the player is told why with a refused
 * spin's code and Params; so do the player's own stops (spins, loss, single win). On a controlled clock.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Code, type AutoplayStops } from '@reel/protocol';
import { createTestApp, writeSettings, type TestApp } from '../../../test/helper.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { FakeCabinets } from '../../../test/doubles/fake-cabinets.js';
import { readSettings } from '../settings/runtime-settings.js';
import { SessionManager } from '../sessions/session-manager.js';
import { createProtection, type Protection } from './protection.js';
import { periodBounds } from './limit-periods.js';

const TIMERS = { graceMs: 60_000, noCreditsTimeoutMs: 30_000, idleTimeoutMs: 120_000, countdownS: 10 };

let t: TestApp;
let cabinets: FakeCabinets;
let sessions: SessionManager;
let protection: Protection;
let nowMs: number;
let player: number;
let machine: number;

beforeAll(async () => {
  t = await createTestApp();
  player = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'alice'")).rows[0]!.id;
  machine = (await t.ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1')).rows[0]!.id;
});
afterAll(() => t.close());

beforeEach(async () => {
  nowMs = Date.now();
  writeSettings(t.ctx, {});
  await t.ctx.db.query('DELETE FROM player_limits');
  await t.ctx.db.query('DELETE FROM player_protection_settings');
  cabinets = new FakeCabinets();
  protection = createProtection({ db: t.ctx.db, settings: () => readSettings(t.ctx.config.settingsFile), now: () => nowMs });
  sessions = new SessionManager({ ...t.ctx, protection }, cabinets, { grant: async () => null }, TIMERS);
  await sessions.start();
  cabinets.connect(machine);
  await sessions.drain();
});

afterEach(async () => {
  await sessions.leave(player).catch(() => {});
  await sessions.stop();
});

/** Joins, cashes in 10.00 and turns autoplay on (bets of 1.00; games lose unless `nextWins` say otherwise). */
async function autoplaying(before?: () => Promise<unknown>, stops?: AutoplayStops) {
  const conn = new FakeConnection();
  await sessions.join(player, machine, conn);
  await before?.();
  await sessions.cashIn(player, 1_000, `ap-in-${nowMs}`);
  await sessions.autoplay(player, 'ap-on', true, stops);
  const sessionId = conn.last('joined').session.sessionId as string;
  const started = (await t.ctx.db.query<{ started_at: Date }>('SELECT started_at FROM slot_sessions WHERE id = $1', [sessionId])).rows[0]!.started_at.getTime();
  return { conn, started };
}

/** The cabinet's autoplay plays one game; resolves once the server has handled it. */
async function autoGame() {
  expect(cabinets.autoSpin(machine)).toBe(true);
  await sessions.drain();
}

const autoplayOn = () => cabinets.get(machine)!.meters.autoplay;
const stops = () => cabinets.commands.filter((c) => c.type === 'autoplay' && c.commandId.includes(':autoplay-stop:'));

describe('the server stops autoplay on the cabinet', () => {
  it('at the game that leaves the loss limit unable to cover the next bet, with the loss limit refusal', async () => {
    const lost = (await protection.limits.list(player)).find((l) => l.key === 'loss_day')!.used;
    const { conn } = await autoplaying(() => protection.limits.update(player, [{ key: 'loss_day', value: lost + 250 }]));
    await autoGame(); // 1.50 left: the next bet of 1.00 still fits
    expect(autoplayOn()).toBe(true);
    expect(stops()).toEqual([]);
    await autoGame(); // 0.50 left
    expect(autoplayOn()).toBe(false);
    expect(stops()).toHaveLength(1);
    expect(conn.last('error')).toEqual({
      code: Code.LossLimitDay,
      ErrorMessage: expect.any(String),
      Params: expect.objectContaining({ limit_key: 'loss_day', left: '0.50', resets: periodBounds('day', nowMs).end.toISOString() }),
      fatal: false,
    });
  });

  it('at the first game stored once the reality check is due (not 1 ms before), with its summary', async () => {
    const { conn, started } = await autoplaying(() => protection.realityChecks.setMinutes(player, 2));
    nowMs = started + 2 * 60_000 - 1;
    await autoGame();
    expect(autoplayOn()).toBe(true);
    expect(conn.last('error')).toBeUndefined();
    nowMs = started + 2 * 60_000;
    await autoGame();
    expect(autoplayOn()).toBe(false);
    expect(conn.last('error')).toEqual({
      code: Code.RealityCheckDue,
      ErrorMessage: expect.any(String),
      Params: { minutes: 2, elapsed_s: 120, spins: 2, money_in: '10.00', money_out: '0.00', net: '-2.00' },
      fatal: false,
    });
  });

  it('at the first game stored once the session time limit has passed', async () => {
    const { conn, started } = await autoplaying(() => protection.limits.update(player, [{ key: 'session_minutes', value: 30 }]));
    nowMs = started + 30 * 60_000;
    await autoGame();
    expect(autoplayOn()).toBe(false);
    expect(conn.last('error')).toMatchObject({ code: Code.SessionTimeLimit, Params: { limit_key: 'session_minutes', minutes: 30 }, fatal: false });
  });
});

describe("autoplay stops at the player's own stops", () => {
  it('after the chosen number of games, not one sooner (the player\'s spin before autoplay is not one of them)', async () => {
    const conn = new FakeConnection();
    await sessions.join(player, machine, conn);
    await sessions.cashIn(player, 1_000, 'own-in');
    await sessions.spin(player, 'own-1');
    await sessions.drain();
    await sessions.autoplay(player, 'ap-3', true, { spins: 3 });
    await autoGame();
    await autoGame();
    expect(autoplayOn()).toBe(true);
    expect(conn.last('info')).toBeUndefined();
    await autoGame();
    expect(autoplayOn()).toBe(false);
    expect(stops()).toHaveLength(1);
    expect(conn.last('info')).toMatchObject({ code: Code.AutoplaySpinsDone, params: { spins: 3 }, action: '' });
  });

  it('once the games since it started lost the chosen amount (wins count against the loss)', async () => {
    cabinets.nextWins = [0, 150, 0, 0];
    const { conn } = await autoplaying(undefined, { spins: 100, lossCents: 200 });
    await autoGame(); // lost 1.00
    await autoGame(); // won 1.50 on 1.00: lost 0.50
    await autoGame(); // lost 1.50
    expect(autoplayOn()).toBe(true);
    await autoGame(); // lost 2.50
    expect(autoplayOn()).toBe(false);
    expect(conn.last('info')).toMatchObject({ code: Code.AutoplayLossReached, params: { loss: '2.50', limit: '2.00' } });
  });

  it('after a single win of the chosen amount or more, not one just below it', async () => {
    cabinets.nextWins = [499, 500];
    const { conn } = await autoplaying(undefined, { spins: 100, singleWinCents: 500 });
    await autoGame();
    expect(autoplayOn()).toBe(true);
    await autoGame();
    expect(autoplayOn()).toBe(false);
    expect(conn.last('info')).toMatchObject({ code: Code.AutoplayWinReached, params: { win: '5.00', limit: '5.00' } });
  });

  it('a limit refusal wins over a stop reached by the same game', async () => {
    const lost = (await protection.limits.list(player)).find((l) => l.key === 'loss_day')!.used;
    const { conn } = await autoplaying(() => protection.limits.update(player, [{ key: 'loss_day', value: lost + 150 }]), { spins: 1 });
    await autoGame();
    expect(autoplayOn()).toBe(false);
    expect(stops()).toHaveLength(1);
    expect(conn.last('error')).toMatchObject({ code: Code.LossLimitDay });
    expect(conn.last('info')).toBeUndefined();
  });
});
