import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminHandPayPath, Code, type HandPayView } from '@reel/protocol';
import { createTestApp, writeSettings, type TestApp } from '../../../test/helper.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { FakeCabinets } from '../../../test/doubles/fake-cabinets.js';
import { auditLedger, walletBalance } from '../ledger/ledger.js';
import { auditPlayers } from '../ledger/player-audit.js';
import { AppError } from '../../lib/errors.js';
import { SessionManager } from '../sessions/session-manager.js';

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
});
