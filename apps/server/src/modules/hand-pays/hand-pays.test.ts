import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminHandPayPath, Code, type HandPayView } from '@reel/protocol';
import { createTestApp, writeSettings, type TestApp } from '../../../test/helper.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { FakeCabinets } from '../../../test/doubles/fake-cabinets.js';
import { auditLedger, walletBalance } from '../ledger/ledger.js';
import { auditPlayers } from '../ledger/player-audit.js';
import { AppError } from '../../lib/errors.js';
import { SessionManager } from '../sessions/session-manager.js';
import { AUDIT_LOCK_ID } from '../audit/audit-signing.js';
import { REPO_ROOT } from '../../lib/paths.js';

const LIMIT = 5_000;
const SECOND_SIGNER = 20_000;

let t: TestApp;
let cabinets: FakeCabinets;
let sessions: SessionManager;
let staff1: string;
let admin: string;
let playerToken: string;
let demo: number;
let machine: number;
let conn: FakeConnection;

const list = async (token = staff1) =>
  (await t.app.inject({ method: 'GET', url: `/api${AdminHandPayPath.list}?status=waiting`, headers: t.auth(token) })).json<HandPayView[]>();
const approve = (id: number, token: string, reason: string | null = 'checked the cabinet camera') =>
  t.app.inject({
    method: 'POST',
    url: `/api${AdminHandPayPath.approve.replace(':id', String(id))}`,
    headers: t.auth(token),
    payload: reason === null ? {} : { reason },
  });
/** Locks of this test's database only (the PostgreSQL server may be shared). */
const HERE = "database = (SELECT oid FROM pg_database WHERE datname = current_database())";
const handPayOps = async () =>
  (await t.ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger_operations WHERE kind = 'hand_pay' AND player_id = $1", [demo])).rows[0]!.n;

async function codeOf(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  return error instanceof AppError ? error.code : null;
}

/** The player wins `winCents` on a spin: the hand pay is taken off the machine and waits. */
async function bigWin(winCents: number): Promise<HandPayView> {
  await sessions.cashIn(demo, 1_000, `k-${winCents}-${Date.now()}`);
  cabinets.nextWins = [winCents];
  await sessions.spin(demo, `spin-${Date.now()}`);
  await sessions.drain();
  await new Promise((r) => setTimeout(r, 50));
  await sessions.drain();
  const waiting = await list();
  expect(waiting).toHaveLength(1);
  return waiting[0]!;
}

beforeAll(async () => {
  cabinets = new FakeCabinets();
  t = await createTestApp(
    () => {},
    (ctx) => {
      writeSettings(ctx, { HAND_PAY_LIMIT: LIMIT, HAND_PAY_SECOND_SIGNER: SECOND_SIGNER });
      sessions = new SessionManager(ctx, cabinets, { grant: async () => null });
      ctx.sessions = sessions;
    },
  );
  await sessions.start();
  // The demo operators: two staff members and an admin.
  staff1 = await t.operatorLogin('staff1', 'staff1234');
  admin = await t.operatorLogin('admin', 'admin1234');
  playerToken = await t.login('demo', 'demo1234');
  demo = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'demo'")).rows[0]!.id;
  machine = (await t.ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1')).rows[0]!.id;
  cabinets.connect(machine);
  await sessions.drain();
  conn = new FakeConnection();
  await sessions.join(demo, machine, conn);
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await auditLedger(t.ctx.db)).ok).toBe(true);
  const players = await auditPlayers(t.ctx.db);
  expect(players.ok, JSON.stringify(players)).toBe(true);
});

describe('hand pays', () => {
  it('a win at the limit locks the machine and waits; one staff approval pays it exactly once', async () => {
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    const handPay = await bigWin(LIMIT);
    expect(handPay).toMatchObject({ machineId: machine, playerId: demo, username: 'demo', amountCents: LIMIT, status: 'waiting', needsSecond: false });
    expect(conn.all('info').some((i) => i.code === Code.HandPayWaiting && i.params.amount === LIMIT)).toBe(true);
    // The rest went back to the wallet as a cash out; the win waits with the house.
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before - 1_000 + 900);
    expect(await handPayOps()).toBe(0);
    expect(await codeOf(sessions.cashIn(demo, 100, 'locked'))).toBe(Code.HandPayWaiting);
    expect(await codeOf(sessions.spin(demo, 'locked'))).toBe(Code.HandPayWaiting);

    const player = await approve(handPay.id, playerToken);
    expect(player.json().code).toBe(Code.RoleNotAllowed);
    const noReason = await approve(handPay.id, staff1, null);
    expect(noReason.json().code).toBe(Code.ReasonRequired);

    const paid = await approve(handPay.id, staff1);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ paid: true, handPay: { status: 'paid', firstSigner: 'operator:staff1', secondSigner: null } });
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before - 100 + LIMIT);
    expect(conn.last('info')).toMatchObject({ code: Code.Success, action: 'HAND_PAY', params: { amount: LIMIT } });

    const again = await approve(handPay.id, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe(Code.HandPayNotWaiting);
    expect(await handPayOps()).toBe(1);
    expect(await list()).toEqual([]);
    // Unlocked: the player plays on.
    await sessions.cashIn(demo, 100, 'after-hand-pay');
    await sessions.cashOut(demo);
    const { rows } = await t.ctx.db.query("SELECT action, actor FROM audit_log WHERE target = $1 ORDER BY seq", [`hand_pay:${handPay.id}`]);
    expect(rows).toEqual([{ action: 'hand_pay.paid', actor: 'operator:staff1' }]);
  });

  it('at the second-signer amount two different staff must approve; the first signer cannot sign twice', async () => {
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    const handPay = await bigWin(SECOND_SIGNER);
    expect(handPay.needsSecond).toBe(true);
    const first = await approve(handPay.id, staff1);
    expect(first.json()).toMatchObject({ paid: false, handPay: { status: 'waiting', firstSigner: 'operator:staff1' } });
    const same = await approve(handPay.id, staff1);
    expect(same.statusCode).toBe(403);
    expect(same.json().code).toBe(Code.SecondSignerSame);
    expect(await handPayOps()).toBe(1);
    const second = await approve(handPay.id, admin);
    expect(second.json()).toMatchObject({ paid: true, handPay: { status: 'paid', firstSigner: 'operator:staff1', secondSigner: 'operator:admin' } });
    expect(await handPayOps()).toBe(2);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before - 1_000 + 900 + SECOND_SIGNER);
  });

  it('two approvals at once pay once; a failure inside the approval leaves it unpaid, and a retry pays once', async () => {
    const handPay = await bigWin(LIMIT);
    // A crash inside the transaction (here: the audit row refused) rolls back the state and the money.
    await t.ctx.db.query(`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'crash'; END $$`);
    await t.ctx.db.query('CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit()');
    expect((await approve(handPay.id, staff1)).statusCode).toBe(500);
    await t.ctx.db.query('DROP TRIGGER refuse_audit ON audit_log; DROP FUNCTION refuse_audit()');
    expect((await list())[0]).toMatchObject({ id: handPay.id, status: 'waiting', firstSigner: null });
    const opsBefore = await handPayOps();

    const [a, b] = await Promise.all([approve(handPay.id, staff1), approve(handPay.id, admin)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await handPayOps()).toBe(opsBefore + 1);
  });

  it('a kill -9 of the approving process in the middle of its transaction leaves the hand pay unpaid; the next approval pays it once', async () => {
    const handPay = await bigWin(LIMIT);
    const opsBefore = await handPayOps();
    // Hold the audit trail's writer lock: the approver blocks inside its transaction after it moved
    // the row and the money but before its audit row, and is killed there.
    const holder = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK_ID]);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'apps/server/test/hand-pay-approver.ts'), t.databaseUrl, String(handPay.id), t.ctx.config.auditKeyFile],
      { cwd: REPO_ROOT, stdio: 'ignore' },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    try {
      await expect
        .poll(async () => (await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND ${HERE}`)).rows[0]!.n, { timeout: 30_000 })
        .toBe(1);
      // Inside the transaction: the row says paid and the money moved, uncommitted.
      const inside = await t.ctx.db.query(`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'hand_pays' AND l.mode = 'RowExclusiveLock' AND l.${HERE}`);
      expect(inside.rows[0].n).toBeGreaterThan(0);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    await expect
      .poll(async () => (await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND ${HERE}`)).rows[0]!.n, { timeout: 10_000 })
      .toBe(0);
    expect((await list())[0]).toMatchObject({ id: handPay.id, status: 'waiting' });
    expect(await handPayOps()).toBe(opsBefore);

    const paid = await approve(handPay.id, staff1);
    expect(paid.json()).toMatchObject({ paid: true });
    expect(await handPayOps()).toBe(opsBefore + 1);
  });

  it('a cash in checked before the winning game was recorded, booked after it, is refused: nothing moves', async () => {
    await sessions.cashIn(demo, 1_000, `race-in-${Date.now()}`);
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    const { rows } = await t.ctx.db.query<{ id: string }>("SELECT id FROM slot_sessions WHERE player_id = $1 AND status <> 'closed'", [demo]);
    const waiting = async () =>
      (await t.ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")).rows[0]!.n;
    // The session row held: the winning game's record waits for it, then the cash in (its check passed).
    const holder = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
    let cashIn: Promise<number | null>;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM slot_sessions WHERE id = $1 FOR UPDATE', [rows[0]!.id]);
      const meters = cabinets.get(machine)!.meters;
      meters.autoplay = true;
      cabinets.nextWins = [LIMIT];
      cabinets.autoSpin(machine);
      meters.autoplay = false;
      await expect.poll(waiting).toBe(1);
      cashIn = codeOf(sessions.cashIn(demo, 100, 'race-locked'));
      await expect.poll(waiting).toBe(2);
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    expect(await cashIn).toBe(Code.HandPayWaiting);
    await sessions.drain();
    const [handPay] = await list();
    expect((await approve(handPay!.id, staff1)).json()).toMatchObject({ paid: true });
    // The bet and the win went back through the hand pay's cash out and the approval; the refused cash in took nothing.
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 900 + LIMIT);
    await sessions.cashOut(demo);
  });

  describe('a win that starts free spins, a restart, a cash out while the hand pay waits', () => {
    const pendingHandPays = async () =>
      (await t.ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM machine_commands WHERE type = 'hand_pay' AND status = 'pending' AND machine_id = $1", [machine])).rows[0]!.n;
    const wallet = async () => (await walletBalance(t.ctx.db, demo)).balance;

    /** A hand-pay-sized win that awards `freeSpins`: the cabinet is in its bonus round (busy). */
    async function winIntoBonus(key: string, freeSpins: number) {
      await sessions.cashIn(demo, 1_000, `${key}-in`);
      cabinets.nextWins = [LIMIT];
      cabinets.freeSpinsNext = freeSpins;
      await sessions.spin(demo, `${key}-spin`);
      await expect.poll(pendingHandPays).toBe(1);
    }
    async function freeSpins(wins: number[]) {
      for (const win of wins) {
        cabinets.freeSpin(machine, win);
        await sessions.drain();
      }
    }

    it('the machine stays locked through the bonus round, then the win is held once and paid once', async () => {
      const before = await wallet();
      const ops = await handPayOps();
      await winIntoBonus('fs', 3);
      expect(await codeOf(sessions.spin(demo, 'fs-locked'))).toBe(Code.HandPayWaiting);
      expect(await codeOf(sessions.cashIn(demo, 100, 'fs-locked'))).toBe(Code.HandPayWaiting);
      await freeSpins([100, 200, 300]);
      await expect.poll(async () => (await list()).map((h) => h.amountCents)).toEqual([LIMIT]);
      // The bet and the free spins' wins went back; the win waits with the house.
      expect(await wallet()).toBe(before - 1_000 + 900 + 600);
      expect(await codeOf(sessions.spin(demo, 'fs-still-locked'))).toBe(Code.HandPayWaiting);
      const [handPay] = await list();
      expect((await approve(handPay!.id, staff1)).json()).toMatchObject({ paid: true });
      expect(await handPayOps()).toBe(ops + 1);
      expect(await wallet()).toBe(before - 100 + 600 + LIMIT);
      expect(await pendingHandPays()).toBe(0);
    });

    it('a restart while the hand pay waits keeps the machine locked; the hand pay is held and paid once', async () => {
      const before = await wallet();
      const ops = await handPayOps();
      await winIntoBonus('restart', 1);
      // A new server on the same database: the lock comes from the records.
      await sessions.stop();
      sessions = new SessionManager(t.ctx, cabinets, { grant: async () => null });
      t.ctx.sessions = sessions;
      await sessions.start();
      conn = new FakeConnection();
      await sessions.join(demo, machine, conn);
      expect(await codeOf(sessions.spin(demo, 'restart-locked'))).toBe(Code.HandPayWaiting);
      expect(await codeOf(sessions.cashIn(demo, 100, 'restart-locked'))).toBe(Code.HandPayWaiting);
      await freeSpins([100]);
      await expect.poll(async () => (await list()).map((h) => h.amountCents)).toEqual([LIMIT]);
      expect(await codeOf(sessions.spin(demo, 'restart-still-locked'))).toBe(Code.HandPayWaiting);
      const [handPay] = await list();
      expect((await approve(handPay!.id, staff1)).json()).toMatchObject({ paid: true });
      expect(await handPayOps()).toBe(ops + 1);
      expect(await wallet()).toBe(before - 100 + 100 + LIMIT);
      // Unlocked once paid.
      await sessions.cashIn(demo, 100, 'restart-after');
      await sessions.cashOut(demo);
    });

    it('a cash out while the hand pay waits never pays the held win to the wallet', async () => {
      const before = await wallet();
      await winIntoBonus('cash-out', 2);
      // Refused while the cabinet plays its bonus round: it waits behind the hand pay.
      expect(await codeOf(sessions.cashOut(demo))).not.toBeNull();
      await freeSpins([100, 100]);
      await sessions.cashOut(demo).catch(() => {});
      await sessions.drain();
      expect(await wallet()).toBe(before - 1_000 + 900 + 200);
      await expect.poll(async () => (await list()).map((h) => h.amountCents)).toEqual([LIMIT]);
      expect(await pendingHandPays()).toBe(0);
      const [handPay] = await list();
      expect((await approve(handPay!.id, staff1)).json()).toMatchObject({ paid: true });
      expect(await wallet()).toBe(before - 100 + 200 + LIMIT);
    });

    it('a win whose game finished just before the cabinet ran a cash out is held, not paid with the cash out', async () => {
      const before = await wallet();
      await sessions.cashIn(demo, 1_000, 'late-in');
      // The cabinet's autoplay finishes a hand-pay-sized game just before it runs the cash out:
      // the cash out takes the win off the meter before the game is recorded.
      cabinets.beforeCashOut = () => {
        cabinets.beforeCashOut = null;
        cabinets.get(machine)!.meters.autoplay = true;
        cabinets.nextWins = [LIMIT];
        cabinets.autoSpin(machine);
      };
      await sessions.cashOut(demo);
      await sessions.drain();
      expect(await wallet()).toBe(before - 100);
      await expect.poll(async () => (await list()).map((h) => h.amountCents)).toEqual([LIMIT]);
      expect(await pendingHandPays()).toBe(0);
      const [handPay] = await list();
      expect((await approve(handPay!.id, staff1)).json()).toMatchObject({ paid: true });
      expect(await wallet()).toBe(before - 100 + LIMIT);
    });
  });
});
