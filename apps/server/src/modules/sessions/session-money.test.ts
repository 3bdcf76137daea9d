/**
 * Money commands of a session: the cash out that a crash interrupts, the cash-in limit under
 * concurrent requests, and promotion money that keeps its kind through the machine.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ActionCode, Code, PromotionKind } from '@reel/protocol';
import { createTestApp, writeSettings, type TestApp } from '../../../test/helper.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { AppError } from '../../lib/errors.js';
import { listTransactions } from '../history/queries.js';
import { auditLedger, machineCredits, OperationKind, walletBalance } from '../ledger/ledger.js';
import { transfer } from '../ledger/ledger-service.js';
import { auditPlayers } from '../ledger/player-audit.js';
import { claimPromotion } from '../promotions/claims.js';
import { FakeCabinets } from '../../../test/doubles/fake-cabinets.js';
import { dyingPool } from '../../../test/doubles/dying-pool.js';
import { SessionManager } from './session-manager.js';

const TIMERS = { graceMs: 60_000, noCreditsTimeoutMs: 30_000, idleTimeoutMs: 120_000, countdownS: 10 };

let t: TestApp;
let cabinets: FakeCabinets;
let sessions: SessionManager;
let demo: number;
let machine: number;

beforeAll(async () => {
  t = await createTestApp((config) => {
    config.promotions.cooldownMs = 0;
  });
  writeSettings(t.ctx, { DISCOUNT_BALANCE_CHECK: false });
  demo = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'demo'")).rows[0]!.id;
  machine = (await t.ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1')).rows[0]!.id;
});
afterAll(() => t.close());

beforeEach(async () => {
  cabinets = new FakeCabinets();
  sessions = new SessionManager(t.ctx, cabinets, { grant: async () => null }, TIMERS);
  await sessions.start();
  cabinets.connect(machine);
  await sessions.drain();
});

afterEach(async () => {
  await sessions.tick(Date.now() + 10 * TIMERS.idleTimeoutMs).catch(() => {});
  await sessions.leave(demo).catch(() => {});
  await sessions.stop();
  const audit = await auditLedger(t.ctx.db);
  expect(audit.ok, JSON.stringify(audit)).toBe(true);
  const players = await auditPlayers(t.ctx.db);
  expect(players.ok, JSON.stringify(players)).toBe(true);
});

async function expectCode(promise: Promise<unknown>, code: number) {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

async function sessionRow(sessionId: string) {
  return (await t.ctx.db.query<{ status: string; cashouts: number }>('SELECT status, cashouts FROM slot_sessions WHERE id = $1', [sessionId])).rows[0]!;
}

describe('a cash out interrupted by a crash', () => {
  it('beginCashOut is one transaction: a crash between its statements leaves nothing half done', async () => {
    // This manager's database dies exactly between "status = cashing_out" and the command row.
    const dying = new SessionManager({ ...t.ctx, db: dyingPool(t.ctx.db, /INSERT INTO machine_commands .*'cash_out'/s) }, cabinets, { grant: async () => null }, TIMERS);
    await sessions.stop();
    sessions = dying;
    await dying.start();
    const conn = new FakeConnection();
    await dying.join(demo, machine, conn);
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    await dying.cashIn(demo, 1_500, 'crash-between');
    await expect(dying.cashOut(demo)).rejects.toThrow('killed');
    const sessionId = conn.last('joined').session.sessionId as string;
    // Rolled back: not stuck in cashing_out, no command row, money still on the machine.
    expect(await sessionRow(sessionId)).toEqual({ status: 'active', cashouts: 0 });
    expect((await t.ctx.db.query("SELECT 1 FROM machine_commands WHERE session_id = $1 AND type = 'cash_out'", [sessionId])).rowCount).toBe(0);
    await dying.stop();

    // The server comes back: the player plays on and cashes out normally.
    sessions = new SessionManager(t.ctx, cabinets, { grant: async () => null }, TIMERS);
    await sessions.start();
    await sessions.join(demo, machine, new FakeConnection());
    cabinets.nextWins = [0];
    await sessions.spin(demo, 'after-restart');
    await sessions.drain();
    await sessions.cashOut(demo);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before - 100);
  });

  it('a session left in cashing_out without a command (the old two-statement crash) is finished by the timer after a restart', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.cashIn(demo, 1_200, 'stuck');
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    const sessionId = conn.last('joined').session.sessionId as string;
    await sessions.stop();
    // What the old code left behind when it died after its first statement.
    await t.ctx.db.query("UPDATE slot_sessions SET status = 'cashing_out', cashouts = cashouts + 1 WHERE id = $1", [sessionId]);

    sessions = new SessionManager(t.ctx, cabinets, { grant: async () => null }, TIMERS);
    await sessions.start();
    await sessions.tick();
    await sessions.drain();
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 1_200);
    expect(await sessionRow(sessionId)).toEqual({ status: 'disconnected', cashouts: 2 });
    // The player is not refused with 50100 any more.
    await sessions.join(demo, machine, new FakeConnection());
    await sessions.cashIn(demo, 300, 'after-stuck');
    expect(await machineCredits(t.ctx.db, machine)).toBe(300);
  });
});

describe('the cash-in limit', () => {
  it('three cash ins of 10,000.00 at once on a 25,000.00 limit: two are accepted, one refused with 40205', async () => {
    await transfer(t.ctx, { kind: OperationKind.Deposit, actionCode: ActionCode.Deposit, playerId: demo, from: { kind: 'cashier' }, to: { kind: 'wallet', playerId: demo }, amountCents: 3_000_000 });
    await sessions.join(demo, machine, new FakeConnection());
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    const results = await Promise.allSettled([1, 2, 3].map((n) => sessions.cashIn(demo, 1_000_000, `limit-${n}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.map((r) => (r.reason as AppError).code)).toEqual([Code.CashInLimit]);
    expect(cabinets.get(machine)!.meters.creditsCents).toBe(2_000_000);
    expect(await machineCredits(t.ctx.db, machine)).toBe(2_000_000);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before - 2_000_000);
    // A retry of an accepted one still answers as the first time.
    await sessions.cashIn(demo, 1_000_000, 'limit-1');
    expect(cabinets.commands.filter((c) => c.type === 'credit_in')).toHaveLength(2);
    await sessions.cashOut(demo);
    await transfer(t.ctx, { kind: OperationKind.Withdraw, actionCode: ActionCode.Withdraw, playerId: demo, from: { kind: 'wallet', playerId: demo, part: 'cash' }, to: { kind: 'cashier' }, amountCents: 3_000_000 });
  });
});

describe('promotion money on a machine', () => {
  const claimBonus = () => claimPromotion(t.ctx, demo, PromotionKind.Bonus);

  it('a bonus cashed in and out without play goes back to the bonus part, and the history says so', async () => {
    await claimBonus();
    const before = await walletBalance(t.ctx.db, demo);
    expect(before.bonus).toBe(1_000);
    await sessions.join(demo, machine, new FakeConnection());
    await sessions.cashIn(demo, 5_000, 'bonus-no-play');
    expect(await walletBalance(t.ctx.db, demo)).toMatchObject({ bonus: 0, cash: before.cash - 4_000 });
    await sessions.cashOut(demo);
    expect(await walletBalance(t.ctx.db, demo)).toEqual(before);
    const history = await listTransactions(t.ctx.db, demo, { limit: 3 });
    expect(history.items[0]).toMatchObject({ type: 'Cash Out', amount: 4_000, tag: null });
    expect(history.items[1]).toMatchObject({ type: 'Cash Out', amount: 1_000 });
    expect(history.items[1]!.tag).toMatch(/^promotion money not wagered yet \(10\.00 more in bets needed\): back to bonus$/);
  });

  it('bets of 1× the promotion amount make it cash, and the history shows the conversion', async () => {
    const before = await walletBalance(t.ctx.db, demo);
    await sessions.join(demo, machine, new FakeConnection());
    // Spend order takes the bonus (10.00, from the test before) first.
    await sessions.cashIn(demo, 1_000, 'bonus-wagered');
    expect((await walletBalance(t.ctx.db, demo)).bonus).toBe(0);
    cabinets.nextWins = Array.from({ length: 10 }, () => 100); // ten bets of 1.00, each won back
    for (let i = 0; i < 10; i++) await sessions.spin(demo, `w-${i}`);
    await sessions.drain();
    await sessions.cashOut(demo);
    const after = await walletBalance(t.ctx.db, demo);
    expect(after).toMatchObject({ bonus: 0, cash: before.cash + 1_000, balance: before.balance });
    const history = await listTransactions(t.ctx.db, demo, { limit: 1 });
    expect(history.items[0]).toMatchObject({ type: 'Cash Out', amount: 1_000, tag: 'promotion money wagered (1× its amount in bets): 10.00 paid as cash' });
  });

  it('partly wagered: what is left of it goes back to the bonus, the player\'s own money stays cash', async () => {
    await claimBonus();
    const before = await walletBalance(t.ctx.db, demo);
    await sessions.join(demo, machine, new FakeConnection());
    await sessions.cashIn(demo, 5_000, 'bonus-partly'); // 10.00 bonus + 40.00 cash
    cabinets.nextWins = [0, 0, 0];
    for (let i = 0; i < 3; i++) await sessions.spin(demo, `p-${i}`);
    await sessions.drain();
    await sessions.cashOut(demo); // 47.00 on the meter; 3.00 bet of the 10.00 required
    expect(await walletBalance(t.ctx.db, demo)).toMatchObject({ bonus: 1_000, cash: before.cash - 300 });
  });

  it('with PROMOTION_WAGER_MULTIPLIER 2, one times the amount is not enough; a refused cash in gives the bonus back as bonus', async () => {
    await sessions.stop();
    sessions = new SessionManager({ ...t.ctx, config: { ...t.ctx.config, promotions: { ...t.ctx.config.promotions, wagerMultiplier: 2 } } }, cabinets, { grant: async () => null }, TIMERS);
    await sessions.start();
    const before = await walletBalance(t.ctx.db, demo);
    expect(before.bonus).toBe(1_000);
    await sessions.join(demo, machine, new FakeConnection());
    cabinets.refuseCreditIn = true;
    await expectCode(sessions.cashIn(demo, 1_500, 'refused-bonus'), Code.MachineNotAvailable);
    cabinets.refuseCreditIn = false;
    expect(await walletBalance(t.ctx.db, demo)).toEqual(before);
    await sessions.cashIn(demo, 1_000, 'bonus-x2');
    cabinets.nextWins = Array.from({ length: 10 }, () => 100);
    for (let i = 0; i < 10; i++) await sessions.spin(demo, `x2-${i}`);
    await sessions.drain();
    await sessions.cashOut(demo);
    expect(await walletBalance(t.ctx.db, demo)).toEqual(before);
    const row = await t.ctx.db.query('SELECT promo_bonus_cents, promo_wager_left_cents FROM slot_sessions WHERE player_id = $1 AND status <> $2', [demo, 'closed']);
    expect(row.rows[0]).toEqual({ promo_bonus_cents: 0, promo_wager_left_cents: 0 });
  });
});
