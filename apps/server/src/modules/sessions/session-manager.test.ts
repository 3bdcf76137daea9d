import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Code, SessionAction } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { auditLedger, machineCredits, walletBalance } from '../ledger/ledger.js';
import { auditPlayers } from '../ledger/player-audit.js';
import { Topic } from '../../lib/bus.js';
import { AppError } from '../../lib/errors.js';
import { FakeCabinets } from '../../../test/doubles/fake-cabinets.js';
import { SessionManager } from './session-manager.js';
import { approveHandPay } from '../hand-pays/hand-pay-approval.js';

const TIMERS = { graceMs: 60_000, noCreditsTimeoutMs: 30_000, idleTimeoutMs: 120_000, countdownS: 10 };

let t: TestApp;
let cabinets: FakeCabinets;
let sessions: SessionManager;
let demo: number;
let alice: number;
let machine: number;
let otherMachine: number;
const lobby: { id: number; status: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const players = await t.ctx.db.query<{ id: number; username: string }>('SELECT id, username FROM players');
  demo = players.rows.find((p) => p.username === 'demo')!.id;
  alice = players.rows.find((p) => p.username === 'alice')!.id;
  const machines = await t.ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 2');
  [machine, otherMachine] = machines.rows.map((r) => r.id) as [number, number];
  t.ctx.bus.subscribe(Topic.lobby, (m) => {
    const message = m as { event: string; data: { id: number; status: string } };
    if (message.event === 'machine') lobby.push(message.data);
  });
});
afterAll(() => t.close());

beforeEach(async () => {
  cabinets = new FakeCabinets();
  sessions = new SessionManager(t.ctx, cabinets, { grant: async () => null }, TIMERS);
  await sessions.start();
  cabinets.connect(machine);
  cabinets.connect(otherMachine);
  await sessions.drain();
  lobby.length = 0;
});

afterEach(async () => {
  // Close whatever a test left open, so the next starts from a clean floor.
  await sessions.tick(Date.now() + 10 * TIMERS.idleTimeoutMs).catch(() => {});
  for (const id of [demo, alice]) await sessions.leave(id).catch(() => {});
  await sessions.stop();
  const audit = await auditLedger(t.ctx.db);
  expect(audit.ok, JSON.stringify(audit)).toBe(true);
  // Every player's money follows from deposits, promotions, jackpots and the recorded games.
  const players = await auditPlayers(t.ctx.db);
  expect(players.ok, JSON.stringify(players)).toBe(true);
});

async function expectCode(promise: Promise<unknown>, code: number) {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

describe('joining', () => {
  it('opens a session, reserves the machine and answers joined', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    const joined = conn.last('joined');
    expect(joined).toMatchObject({ machineId: machine, resumed: false, betLevels: [100, 200, 500], activeBand: 'high' });
    expect(joined.session.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lobby).toContainEqual(expect.objectContaining({ id: machine, status: 'playing' }));
    const { rows } = await t.ctx.db.query('SELECT status FROM slot_sessions WHERE id = $1', [joined.session.sessionId]);
    expect(rows[0].status).toBe('active');
  });

  it('refuses a machine held by another player (40901) and an offline one (40903)', async () => {
    await sessions.join(demo, machine, new FakeConnection());
    await expectCode(sessions.join(alice, machine, new FakeConnection()), Code.MachineBusy);
    cabinets.disconnect(otherMachine);
    await sessions.drain();
    await expectCode(sessions.join(alice, otherMachine, new FakeConnection()), Code.MachineNotAvailable);
  });

  it('refuses a second machine while a session is open (40902)', async () => {
    await sessions.join(demo, machine, new FakeConnection());
    await expectCode(sessions.join(demo, otherMachine, new FakeConnection()), Code.OpenSessionElsewhere);
  });

  it('renews the stream grant on request, and says 70000 when video is off', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await expectCode(sessions.renewStream(demo), Code.PipelineFailed);
    const withVideo = new SessionManager(t.ctx, cabinets, {
      grant: async (playerId, machineId) => ({ grant: `g-${playerId}-${machineId}`, expiresAt: '', whepUrl: '/w', iceServers: [] }),
    });
    const other = new FakeConnection();
    await withVideo.join(alice, otherMachine, other);
    await withVideo.renewStream(alice);
    expect(other.last('stream')).toMatchObject({ grant: `g-${alice}-${otherMachine}` });
    await withVideo.leave(alice);
    await withVideo.stop();
  });

  it('a second connection of the same player sends the first QUIT_REQUEST', async () => {
    const first = new FakeConnection();
    const second = new FakeConnection();
    await sessions.join(demo, machine, first);
    await sessions.join(demo, machine, second);
    expect(first.last('info')).toMatchObject({ action: SessionAction.QuitRequest });
    expect(first.closedWith).toBe(4000);
    expect(second.last('joined')).toMatchObject({ resumed: true });
  });
});

describe('money on the machine', () => {
  it('cash in, spins, cash out: wallet and history match the machine to the cent', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    await sessions.cashIn(demo, 5_000, 'key-1');
    await sessions.cashIn(demo, 5_000, 'key-1'); // a retry: no second effect
    expect(cabinets.commands.filter((c) => c.type === 'credit_in')).toHaveLength(1);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before - 5_000);
    expect(await machineCredits(t.ctx.db, machine)).toBe(5_000);

    cabinets.nextWins = [0, 300, 0, 0, 1_000];
    for (let i = 0; i < 5; i++) await sessions.spin(demo, `spin-${i}`);
    await sessions.drain();
    const credits = cabinets.get(machine)!.meters.creditsCents;
    expect(credits).toBe(5_000 - 500 + 1_300);
    expect(conn.last('session')).toMatchObject({ spins: 5, cashInCents: 5_000, netCents: 800 });

    // Asked three times at once: paid exactly once.
    await Promise.all([sessions.cashOut(demo), sessions.cashOut(demo), sessions.cashOut(demo)]);
    expect(cabinets.commands.filter((c) => c.type === 'cash_out')).toHaveLength(1);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 800);
    expect(await machineCredits(t.ctx.db, machine)).toBe(0);
    expect(conn.last('cashedOut')).toMatchObject({ amountCents: credits });
    const ops = await t.ctx.db.query(
      "SELECT kind, action_code, amount_cents FROM ledger_operations WHERE session_id = $1 ORDER BY id",
      [conn.last('joined').session.sessionId],
    );
    expect(ops.rows).toEqual([
      { kind: 'cash_in', action_code: 3, amount_cents: 5_000 },
      { kind: 'game_result', action_code: null, amount_cents: 800 },
      { kind: 'cash_out', action_code: 4, amount_cents: 5_800 },
    ]);
  });

  it('refuses a cash in above MAX_ALL_IN_LIMIT and gives refused credits back', async () => {
    await sessions.join(demo, machine, new FakeConnection());
    await expectCode(sessions.cashIn(demo, 2_500_001, 'too-much'), Code.CashInLimit);
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    cabinets.refuseCreditIn = true;
    await expectCode(sessions.cashIn(demo, 500, 'refused'), Code.MachineNotAvailable);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before);
    expect(await machineCredits(t.ctx.db, machine)).toBe(0);
  });

  it('insufficient wallet money moves nothing', async () => {
    await sessions.join(alice, otherMachine, new FakeConnection());
    const before = (await walletBalance(t.ctx.db, alice)).balance;
    await expectCode(sessions.cashIn(alice, before + 1, 'big'), Code.InsufficientBalance);
    expect(cabinets.commands.filter((c) => c.type === 'credit_in')).toHaveLength(0);
    expect((await walletBalance(t.ctx.db, alice)).balance).toBe(before);
  });

  it('a win above the machine limit waits as a hand pay, then is paid as a Hand Pay (action code 5) on approval', async () => {
    await t.ctx.db.query('UPDATE machines SET handpay_limit_cents = 2000 WHERE id = $1', [machine]);
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.cashIn(demo, 1_000, 'hp');
    cabinets.nextWins = [5_000];
    await sessions.spin(demo, 'big-win');
    await sessions.drain();
    const ops = await t.ctx.db.query('SELECT kind, action_code, amount_cents FROM ledger_operations WHERE session_id = $1 ORDER BY id', [
      conn.last('joined').session.sessionId,
    ]);
    // Held by the house until staff approve; the machine is locked meanwhile.
    expect(ops.rows).toContainEqual({ kind: 'hand_pay_hold', action_code: null, amount_cents: 5_000 });
    expect(ops.rows.some((op) => op.kind === 'hand_pay')).toBe(false);
    expect(conn.last('cycle')).toMatchObject({ winCents: 5_000, handPay: true });
    // The amount travels as cents (it was a formatted string the web app parsed back).
    expect(conn.all('info')).toContainEqual(expect.objectContaining({ code: Code.HandPayWaiting, action: 'HAND_PAY', params: { amount: 5_000 } }));
    expect(cabinets.get(machine)!.meters.creditsCents).toBe(0);
    await expectCode(sessions.cashIn(demo, 100, 'locked'), Code.HandPayWaiting);
    const { rows } = await t.ctx.db.query<{ id: number }>("SELECT id FROM hand_pays WHERE status = 'waiting'");
    await approveHandPay({ db: t.ctx.db, bus: t.ctx.bus, paid: (p) => sessions.handPayPaid(p.machineId, p.playerId, p.amountCents) }, { id: 1, username: 'staff1', admin: false, actor: 'operator:staff1' }, rows[0]!.id, 'seen on camera');
    const paid = await t.ctx.db.query('SELECT kind, action_code, amount_cents FROM ledger_operations WHERE session_id = $1 ORDER BY id', [
      conn.last('joined').session.sessionId,
    ]);
    expect(paid.rows).toContainEqual({ kind: 'hand_pay', action_code: 5, amount_cents: 5_000 });
    expect(conn.last('info')).toMatchObject({ code: Code.Success, action: 'HAND_PAY', params: { amount: 5_000 } });
    await t.ctx.db.query('UPDATE machines SET handpay_limit_cents = 1000000 WHERE id = $1', [machine]);
  });

  it('a jackpot hit is paid with action code 6 and announced to the lobby', async () => {
    const announced: any[] = [];
    const off = t.ctx.bus.subscribe(Topic.lobby, (m) => (m as any).event === 'jackpot' && (m as any).data.hit && announced.push((m as any).data));
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.cashIn(demo, 1_000, 'jp');
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    cabinets.jackpotNext = true;
    await sessions.spin(demo, 'jackpot');
    await sessions.drain();
    off();
    expect(announced).toHaveLength(1);
    const paid = announced[0].hit.amountCents;
    expect(paid).toBeGreaterThan(0);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + paid);
    // The payment itself: one jackpot operation of the session, booked with action code 6.
    const ops = await t.ctx.db.query('SELECT kind, action_code, amount_cents FROM ledger_operations WHERE session_id = $1 AND kind = $2', [
      conn.last('joined').session.sessionId,
      'jackpot',
    ]);
    expect(ops.rows).toEqual([{ kind: 'jackpot', action_code: 6, amount_cents: paid }]);
  });
});

describe('disconnects, timers and restarts', () => {
  it('a dropped player keeps the session (Waiting) and gets their money back after the grace period', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.cashIn(demo, 2_000, 'grace');
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    await sessions.disconnect(demo, conn);
    expect(lobby.at(-1)).toMatchObject({ id: machine, status: 'waiting' });
    expect(sessions.openSessionOf(demo)).toMatchObject({ status: 'disconnected', id: machine, machine_status: 'idle' });

    await sessions.tick(Date.now() + TIMERS.graceMs - 5_000);
    expect(sessions.openSessionOf(demo)).not.toBeNull();
    await sessions.tick(Date.now() + TIMERS.graceMs + 1_000);
    expect(sessions.openSessionOf(demo)).toBeNull();
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 2_000);
    expect(lobby.at(-1)).toMatchObject({ id: machine, status: 'available' });
  });

  it('a timer tick during a leave does not start a second cash out or reopen the closed session', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.cashIn(demo, 700, 'leave-tick');
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    // The tick runs while the leave's cash out is under way (it used to "resume" that close).
    const ticks: Promise<void>[] = [];
    const send = cabinets.sendCommand.bind(cabinets);
    cabinets.sendCommand = (id, input) => {
      if (input.type === 'cash_out') ticks.push(sessions.tick());
      return send(id, input);
    };
    await sessions.leave(demo);
    await Promise.all(ticks);
    await sessions.drain();
    expect(ticks.length).toBeGreaterThan(0);
    expect(cabinets.commands.filter((c) => c.type === 'cash_out')).toHaveLength(1);
    const { rows } = await t.ctx.db.query<{ status: string; cashouts: number }>(
      'SELECT status, cashouts FROM slot_sessions WHERE id = $1',
      [conn.last('joined').session.sessionId],
    );
    expect(rows[0]).toEqual({ status: 'closed', cashouts: 1 });
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 700);
    expect(lobby.at(-1)).toMatchObject({ id: machine, status: 'available' });
  });

  it('coming back within the grace period resumes with the same credits', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.cashIn(demo, 1_500, 'resume');
    await sessions.disconnect(demo, conn);
    const again = new FakeConnection();
    await sessions.join(demo, machine, again);
    expect(again.last('joined')).toMatchObject({ resumed: true, machine: { creditsCents: 1_500 } });
    expect(again.last('joined').session.sessionId).toBe(conn.last('joined').session.sessionId);
  });

  it('counts down to deposit (18800), then closes the session (CLOSE_SESSION)', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    const start = Date.now();
    await sessions.tick(start + TIMERS.noCreditsTimeoutMs - 1_000);
    expect(conn.all('info')).toHaveLength(0);
    await sessions.tick(start + TIMERS.noCreditsTimeoutMs + 10);
    expect(conn.last('info')).toMatchObject({ code: Code.InfoDepositCountdown, params: { count: 10 }, action: SessionAction.SessionCloseWarning });
    await sessions.tick(start + TIMERS.noCreditsTimeoutMs + 3_010);
    expect(conn.last('info')).toMatchObject({ params: { count: 7 } });
    await sessions.tick(start + TIMERS.noCreditsTimeoutMs + 10_010);
    expect(conn.all('info').at(-1)).toMatchObject({ code: Code.InfoSessionTerminating, action: SessionAction.CloseSession });
    expect(conn.last('closed')).toBeTruthy();
    expect(sessions.openSessionOf(demo)).toBeNull();
  });

  it('counts down to continue (18802) with credits and no play, and play resets it', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.cashIn(demo, 500, 'idle');
    const start = Date.now();
    await sessions.tick(start + TIMERS.idleTimeoutMs + 10);
    expect(conn.last('info')).toMatchObject({ code: Code.InfoContinueCountdown, params: { count: 10 } });
    await sessions.spin(demo, 'wake-up');
    await sessions.drain();
    const infos = conn.all('info').length;
    await sessions.tick(Date.now() + 1_000);
    expect(conn.all('info')).toHaveLength(infos);
  });

  it('after a restart, open sessions wait for their players and close with the money back', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.cashIn(demo, 3_000, 'restart');
    cabinets.nextWins = [700];
    await sessions.spin(demo, 'before-crash');
    await sessions.drain();
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    // The server "dies": a new manager starts from the database; the cabinet keeps its meter.
    await sessions.stop();
    const restarted = new SessionManager(t.ctx, cabinets, { grant: async () => null }, TIMERS);
    await restarted.start();
    expect(restarted.openSessionOf(demo)).toMatchObject({ status: 'disconnected' });
    await restarted.tick(Date.now() + TIMERS.graceMs + 1_000);
    expect(restarted.openSessionOf(demo)).toBeNull();
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 3_000 - 100 + 700);
    sessions = restarted;
  });

  it('a cash out interrupted by an unreachable machine completes, once, when it returns', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.cashIn(demo, 1_200, 'interrupted');
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    cabinets.unreachable = true;
    await expectCode(sessions.cashOut(demo), Code.MachineNoAnswer);
    await expectCode(sessions.cashOut(demo), Code.MachineNoAnswer);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before);
    cabinets.unreachable = false;
    cabinets.emit('connected', { machineId: machine, agentId: 'fake', state: 'idle', videoError: null, emergencyStop: null, meters: null, info: {} as never, connectedAtMs: Date.now() });
    await sessions.drain();
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 1_200);
    expect(cabinets.commands.filter((c) => c.type === 'cash_out')).toHaveLength(1);
  });
});

describe('pushes', () => {
  it('the player gets the machine view once per real change, and the lobby a status once per change', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.drain();
    const views = () => conn.all('machine').length;
    const statuses = () => lobby.filter((s) => s.id === machine).length;
    const [viewsAtJoin, statusesAtJoin] = [views(), statuses()];
    await sessions.cashIn(demo, 1_000, 'push-1');
    await sessions.spin(demo, 'push-spin');
    await sessions.drain();
    const afterSpin = views();
    expect(afterSpin - viewsAtJoin).toBeGreaterThan(0);
    // The cabinet reports the same meters again, and the same state again: nothing new to show.
    const meters = { ...cabinets.get(machine)!.meters };
    cabinets.emit('meters', { machineId: machine, meters });
    cabinets.emit('meters', { machineId: machine, meters });
    cabinets.setState(machine, 'idle');
    cabinets.setState(machine, 'idle');
    await sessions.drain();
    expect(views()).toBe(afterSpin);
    expect(statuses()).toBe(statusesAtJoin);
    // A real change is shown at once.
    cabinets.setState(machine, 'in_game');
    await sessions.drain();
    expect(conn.last('machine')).toMatchObject({ cabinetState: 'in_game' });
    expect(views()).toBe(afterSpin + 1);
    // The game ends, as a cabinet's does: a cabinet in a game refuses the cash out of the leave.
    cabinets.setState(machine, 'idle');
    await sessions.drain();
  });

  it('a spin asks the lobby its status only when it wins (the hot flag); its state changes do not', async () => {
    await sessions.stop();
    let lobbyReads = 0;
    const db = new Proxy(t.ctx.db, {
      get(target, key, receiver) {
        if (key !== 'query') return Reflect.get(target, key, receiver);
        return (text: string, ...rest: unknown[]) => {
          if (typeof text === 'string' && text.includes('recent_payout')) lobbyReads++;
          return (target.query as (...args: unknown[]) => unknown).call(target, text, ...rest);
        };
      },
    });
    sessions = new SessionManager({ ...t.ctx, db }, cabinets, { grant: async () => null }, TIMERS);
    await sessions.start();
    await sessions.join(demo, machine, new FakeConnection());
    await sessions.cashIn(demo, 1_000, 'reads-1');
    await sessions.drain();
    const before = lobbyReads;
    cabinets.nextWins = [0, 0, 500];
    // The fake cabinet plays at once; a real one reports in_game and then idle around each game.
    const spinAsCabinetsDo = async (commandId: string) => {
      cabinets.emit('state', { machineId: machine, state: 'in_game', previous: 'idle', atMs: Date.now() });
      await sessions.spin(demo, commandId);
      cabinets.emit('state', { machineId: machine, state: 'idle', previous: 'in_game', atMs: Date.now() });
    };
    for (let i = 0; i < 2; i++) await spinAsCabinetsDo(`reads-spin-${i}`);
    await sessions.drain();
    expect(lobbyReads).toBe(before);
    await spinAsCabinetsDo('reads-spin-win');
    await sessions.drain();
    expect(lobbyReads).toBe(before + 1);
  });
});

