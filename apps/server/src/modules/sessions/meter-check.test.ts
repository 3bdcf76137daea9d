import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ActionCode, Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { auditLedger, machineCredits, OperationKind, walletBalance } from '../ledger/ledger.js';
import { transfer } from '../ledger/ledger-service.js';
import { auditPlayers } from '../ledger/player-audit.js';
import { auditCommand, malfunctionsCommand } from '../../cli/operator-commands.js';
import { Topic } from '../../lib/bus.js';
import { AppError } from '../../lib/errors.js';
import { FakeCabinets } from '../../../test/doubles/fake-cabinets.js';
import { SessionManager } from './session-manager.js';

const TIMERS = { graceMs: 60_000, noCreditsTimeoutMs: 30_000, idleTimeoutMs: 120_000, countdownS: 10 };

let t: TestApp;
let cabinets: FakeCabinets;
let sessions: SessionManager;
let demo: number;
let machine: number;
const lobby: { id: number; status: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  demo = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'demo'")).rows[0]!.id;
  machine = (await t.ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1')).rows[0]!.id;
  t.ctx.bus.subscribe(Topic.lobby, (m) => {
    const message = m as { event: string; data: { id: number; status: string } };
    if (message.event === 'machine') lobby.push(message.data);
  });
});
afterAll(() => t.close());

beforeEach(async () => {
  // Each test starts with a machine that has no fault and no memory on record.
  await t.ctx.db.query("UPDATE machines SET memory_id = NULL, meter_fault = NULL, cabinet_state = 'offline' WHERE id = $1", [machine]);
  cabinets = new FakeCabinets();
  sessions = new SessionManager(t.ctx, cabinets, { grant: async () => null }, TIMERS);
  await sessions.start();
  cabinets.connect(machine);
  await sessions.drain();
  lobby.length = 0;
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

async function sessionOps(sessionId: string) {
  const { rows } = await t.ctx.db.query<{ kind: string; action_code: number | null; amount_cents: number; tag: string | null }>(
    'SELECT kind, action_code, amount_cents, tag FROM ledger_operations WHERE session_id = $1 ORDER BY id',
    [sessionId],
  );
  return rows;
}

describe('meters against the game records', () => {
  it('a cabinet restarted with its memory keeps the session going with the same credits', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    await sessions.cashIn(demo, 20_000, 'restart-keeps');
    cabinets.nextWins = [0];
    await sessions.spin(demo, 'one');
    await sessions.drain();
    cabinets.restart(machine);
    await sessions.drain();
    expect(cabinets.commands.map((c) => c.type)).toContain('recall');
    expect(conn.all('info').filter((i) => i.code === Code.MachineMalfunction)).toHaveLength(0);
    const memory = await t.ctx.db.query('SELECT memory_id, meter_fault FROM machines WHERE id = $1', [machine]);
    expect(memory.rows[0]).toMatchObject({ memory_id: cabinets.get(machine)!.memoryId, meter_fault: null });
    cabinets.nextWins = [250];
    await sessions.spin(demo, 'two');
    await sessions.drain();
    await sessions.cashOut(demo);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before - 200 + 250);
  });

  it('a cleared memory is a malfunction: the session is held, the player is told, and the records pay as a hand pay, never a loss', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    await sessions.cashIn(demo, 20_000, 'wiped');
    cabinets.nextWins = [300];
    await sessions.spin(demo, 'win');
    await sessions.drain();
    const sessionId = conn.last('joined').session.sessionId as string;

    cabinets.wipe(machine); // killed, and back with an empty memory
    await sessions.drain();

    expect(conn.last('info')).toMatchObject({ code: Code.MachineMalfunction, params: { amount: 20_200 } });
    expect(conn.last('info').message).toContain('202.00');
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 200);
    expect(await machineCredits(t.ctx.db, machine)).toBe(0);
    const ops = await sessionOps(sessionId);
    expect(ops.map((o) => [o.kind, o.action_code, o.amount_cents])).toEqual([
      [OperationKind.CashIn, ActionCode.CashIn, 20_000],
      [OperationKind.GameResult, null, 200],
      [OperationKind.HandPay, ActionCode.HandPay, 20_200],
    ]);
    expect(ops.at(-1)!.tag).toMatch(/^machine malfunction \(.*\): credits paid from the game records$/);
    expect(ops.some((o) => /loss/.test(o.tag ?? ''))).toBe(false);
    const row = await t.ctx.db.query('SELECT status, malfunction FROM slot_sessions WHERE id = $1', [sessionId]);
    expect(row.rows[0]).toMatchObject({ status: 'active', malfunction: { reason: 'meters', expectedCents: 20_200, reportedCents: 0, paidCents: 20_200 } });
    // One event for the operator, with the cycles the records hold.
    const logged = await t.ctx.db.query('SELECT * FROM malfunctions WHERE session_id = $1', [sessionId]);
    expect(logged.rows).toEqual([
      expect.objectContaining({
        machine_id: machine,
        player_id: demo,
        reason: 'meters',
        records_cents: 20_200,
        machine_cents: 0,
        paid_cents: 20_200,
        adjustment_cents: 0,
        recorded_games: [expect.objectContaining({ gameId: `${machine}-1`, betCents: 100, winCents: 300 })],
        cabinet_games: [],
        missing_games: [],
      }),
    ]);

    // Held: play and money are refused with the same code; the machine is out of the lobby.
    await expectCode(sessions.spin(demo, 'after'), Code.MachineMalfunction);
    await expectCode(sessions.cashIn(demo, 500, 'after'), Code.MachineMalfunction);
    expect(cabinets.get(machine)!.state).toBe('malfunction');
    expect(lobby.at(-1)).toMatchObject({ id: machine, status: 'not_available' });
    // A reload shows the notice again.
    const again = new FakeConnection();
    await sessions.join(demo, machine, again);
    expect(again.last('info')).toMatchObject({ code: Code.MachineMalfunction });
    // Leaving closes the session without asking the faulted cabinet for anything.
    const commands = cabinets.commands.length;
    await sessions.leave(demo);
    expect(cabinets.commands.slice(commands).filter((c) => c.type === 'cash_out')).toHaveLength(0);
    expect((await t.ctx.db.query('SELECT status, close_reason FROM slot_sessions WHERE id = $1', [sessionId])).rows[0]).toEqual({
      status: 'closed',
      close_reason: 'left',
    });
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 200);
  });

  it('a cash out that pays less than the records is settled from the records', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    await sessions.cashIn(demo, 5_000, 'short');
    cabinets.nextWins = [0];
    await sessions.spin(demo, 'one');
    await sessions.drain();
    cabinets.get(machine)!.meters.creditsCents = 1_000; // the meter lost credits while connected
    await sessions.cashOut(demo);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before - 100);
    expect(conn.last('info')).toMatchObject({ code: Code.MachineMalfunction, params: { amount: 4_900 } });
    const ops = await sessionOps(conn.last('joined').session.sessionId);
    expect(ops.at(-1)).toMatchObject({ kind: OperationKind.HandPay, amount_cents: 4_900 });
    expect(cabinets.get(machine)!.state).toBe('malfunction');
    await expectCode(sessions.spin(demo, 'after'), Code.MachineMalfunction);
  });

  it('the same memory showing more than the records pays the player the larger amount', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    await sessions.cashIn(demo, 5_000, 'more');
    cabinets.get(machine)!.meters.creditsCents += 700; // a win the records never got
    cabinets.restart(machine);
    await sessions.drain();
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 700);
    const ops = await sessionOps(conn.last('joined').session.sessionId);
    expect(ops.map((o) => [o.kind, o.amount_cents])).toEqual([
      [OperationKind.CashIn, 5_000],
      [OperationKind.MalfunctionAdjustment, 700],
      [OperationKind.HandPay, 5_700],
    ]);
    // The paid credits are taken off the (same) memory's meter before it stops in malfunction.
    expect(cabinets.get(machine)!.meters.creditsCents).toBe(0);
    expect(cabinets.get(machine)!.state).toBe('malfunction');
    // The operator sees it: the session, both amounts, what the house paid above the records.
    const [listed] = await malfunctionsCommand(t.ctx.db, '1');
    expect(listed).toMatchObject({
      machine: machine,
      player: 'demo',
      session: conn.last('joined').session.sessionId,
      reason: 'meters',
      records: '50.00',
      machine_shows: '57.00',
      paid: '57.00',
      from_house: '7.00',
    });
  });

  it('credits on a machine nobody holds keep it out of play', async () => {
    cabinets.get(machine)!.meters.creditsCents = 5_000;
    cabinets.restart(machine);
    await sessions.drain();
    const logged = await t.ctx.db.query('SELECT session_id, reason, records_cents, machine_cents, paid_cents FROM malfunctions WHERE machine_id = $1 ORDER BY id DESC LIMIT 1', [machine]);
    expect(logged.rows[0]).toEqual({ session_id: null, reason: 'meters', records_cents: 0, machine_cents: 5_000, paid_cents: null });
    const { rows } = await t.ctx.db.query('SELECT cabinet_state, meter_fault FROM machines WHERE id = $1', [machine]);
    expect(rows[0]).toMatchObject({ cabinet_state: 'malfunction', meter_fault: { reason: 'meters', expectedCents: 0, reportedCents: 5_000 } });
    await expectCode(sessions.join(demo, machine, new FakeConnection()), Code.MachineNotAvailable);
    // An attendant clears the fault without clearing the credits: checked again, out of play again.
    await cabinets.sendCommand(machine, { type: 'set_fault', fault: 'none', commandId: 'attendant-1' });
    await sessions.drain();
    expect(cabinets.get(machine)!.state).toBe('malfunction');
    // Credits cleared too (a memory reset): the machine is back in play.
    cabinets.get(machine)!.meters.creditsCents = 0;
    await cabinets.sendCommand(machine, { type: 'set_fault', fault: 'none', commandId: 'attendant-2' });
    await sessions.drain();
    expect(cabinets.get(machine)!.state).toBe('idle');
    await sessions.join(demo, machine, new FakeConnection());
  });
});

describe('the audit', () => {
  it('goes red when a player lost money that no recorded game explains (the old "session loss" booking)', async () => {
    const other = await createTestApp();
    try {
      const alice = (await other.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'alice'")).rows[0]!.id;
      const machineId = (await other.ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1')).rows[0]!.id;
      expect((await auditCommand(other.ctx.db)).ok).toBe(true);
      // What the old cash out did after a cabinet restart: 200.00 in, 0 paid, all of it to the house.
      await transfer(other.ctx, { kind: OperationKind.CashIn, actionCode: ActionCode.CashIn, playerId: alice, from: { kind: 'wallet', playerId: alice }, to: { kind: 'machine', machineId }, amountCents: 20_000, machineId });
      await transfer(other.ctx, { kind: OperationKind.GameResult, from: { kind: 'machine', machineId }, to: { kind: 'house' }, amountCents: 20_000, machineId, tag: 'session loss' });
      const audit = await auditCommand(other.ctx.db);
      expect(audit).toMatchObject({ total: 0, unbalanced: 0, drifted: 0, negative: 0, ok: false });
      expect(audit.players).toEqual([{ playerId: alice, username: 'alice', walletCents: 30_000, onMachinesCents: 0, expectedCents: 50_000 }]);
    } finally {
      await other.close();
    }
  });
});
