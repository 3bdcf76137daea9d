import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminFloorPath, Code, SessionAction, WsCloseCode, type FloorMachine } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { FakeCabinets } from '../../../test/doubles/fake-cabinets.js';
import { TestSocket } from '../../../test/ws-client.js';
import { walletBalance } from '../ledger/ledger.js';
import { AppError } from '../../lib/errors.js';
import { SessionManager } from '../sessions/session-manager.js';

let t: TestApp;
let cabinets: FakeCabinets;
let sessions: SessionManager;
let staffToken: string;
let playerToken: string;
let demo: number;
let machine: number;
let conn: FakeConnection;

const path = (template: string, machineId = machine) => `/api${template.replace(':machineId', String(machineId))}`;
const act = (method: 'POST' | 'PUT', template: string, payload: object, token = staffToken, machineId = machine) =>
  t.app.inject({ method, url: path(template, machineId), headers: t.auth(token), payload });
const floorOf = async (machineId = machine): Promise<FloorMachine> =>
  (await t.app.inject({ method: 'GET', url: path(AdminFloorPath.floor), headers: t.auth(staffToken) }))
    .json<{ machines: FloorMachine[] }>()
    .machines.find((m) => m.machineId === machineId)!;

async function codeOf(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  return error instanceof AppError ? error.code : null;
}

/** The trail's last rows with their before and after (an action on the session writes its attempt, then its outcome). */
const lastAudit = async (count: number) =>
  (
    await t.ctx.db.query<{ seq: number; action: string; before: unknown; after: unknown }>(
      'SELECT seq, action, before, after FROM audit_log ORDER BY seq DESC LIMIT $1',
      [count],
    )
  ).rows.reverse();

const auditRows = async () =>
  (await t.ctx.db.query<{ actor: string; action: string; target: string; reason: string }>('SELECT actor, action, target, reason FROM audit_log ORDER BY seq')).rows;

beforeAll(async () => {
  cabinets = new FakeCabinets();
  t = await createTestApp(
    () => {},
    (ctx) => {
      const grant = async (playerId: number, machineId: number) => ({
        grant: `grant-${playerId}-${machineId}`,
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
        whepUrl: `/api/media/whep/${machineId}`,
        iceServers: [],
      });
      sessions = new SessionManager(ctx, cabinets, { grant });
      ctx.sessions = sessions;
    },
  );
  await sessions.start();
  staffToken = await t.operatorLogin('staff1', 'staff1234');
  playerToken = await t.login('demo', 'demo1234');
  demo = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'demo'")).rows[0]!.id;
  machine = (await t.ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1')).rows[0]!.id;
  cabinets.connect(machine);
  await sessions.drain();
});
afterAll(() => t.close());

beforeEach(async () => {
  if (!sessions.isHeld(machine)) {
    conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.cashIn(demo, 1_000, `k-${Date.now()}`);
  }
});

describe('the console floor', () => {
  it('refuses a player token on the snapshot and every action with 403 40304', async () => {
    const get = await t.app.inject({ method: 'GET', url: path(AdminFloorPath.floor), headers: t.auth(playerToken) });
    expect(get.statusCode).toBe(403);
    expect(get.json().code).toBe(Code.RoleNotAllowed);
    for (const [method, template, payload] of [
      ['POST', AdminFloorPath.kick, { reason: 'x' }],
      ['POST', AdminFloorPath.cashOut, { reason: 'x' }],
      ['PUT', AdminFloorPath.service, { inService: false, reason: 'x' }],
      ['PUT', AdminFloorPath.emergencyStop, { stopped: true, reason: 'x' }],
    ] as const) {
      const response = await act(method, template, payload, playerToken);
      expect(response.statusCode, template).toBe(403);
      expect(response.json().code).toBe(Code.RoleNotAllowed);
    }
    expect(sessions.isHeld(machine)).toBe(true);
  });

  it('shows each machine live: player, credits, session time, net position and cabinet health', async () => {
    const view = await floorOf();
    expect(view).toMatchObject({
      machineId: machine,
      cabinetState: 'idle',
      outOfService: null,
      emergencyStop: null,
      session: { playerId: demo, username: 'demo', status: 'active', netCents: 0 },
      creditsCents: 1_000,
      handPaysWaiting: 0,
      health: { connected: true, encoderRunning: true, videoError: null, lastFrameAgeMs: null, malfunctions: 0 },
    });
    expect(Date.parse(view.session!.startedAt)).toBeLessThanOrEqual(Date.now());
  });

  it('needs a reason for every action (40003) and changes nothing without one', async () => {
    for (const [method, template, payload] of [
      ['POST', AdminFloorPath.kick, {}],
      ['POST', AdminFloorPath.cashOut, { reason: '   ' }],
      ['PUT', AdminFloorPath.service, { inService: false }],
      ['PUT', AdminFloorPath.emergencyStop, { stopped: true, reason: '' }],
    ] as const) {
      const response = await act(method, template, payload);
      expect(response.statusCode, template).toBe(400);
      expect(response.json().code).toBe(Code.ReasonRequired);
    }
    expect(conn.closedWith).toBeNull();
    expect(await floorOf()).toMatchObject({ outOfService: null, emergencyStop: null, creditsCents: 1_000 });
    expect(await auditRows()).toEqual([]);
  });

  it('kicks: the player gets QUIT_REQUEST and the session waits in grace with its credits', async () => {
    const response = await act('POST', AdminFloorPath.kick, { reason: 'abusive chat' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ok: true, playerId: demo });
    expect(conn.last('info')).toMatchObject({ code: Code.SessionTerminated, params: { by: 'staff' }, action: SessionAction.QuitRequest });
    expect(conn.closedWith).toBe(WsCloseCode.QuitRequest);
    expect((await auditRows()).at(-2)).toEqual({ actor: 'operator:staff1', action: 'machine.kick', target: `machine:${machine}`, reason: 'abusive chat' });
    const [attempt, outcome] = await lastAudit(2);
    expect(attempt).toMatchObject({ action: 'machine.kick', before: null, after: { outcome: 'requested' } });
    expect(outcome).toMatchObject({ action: 'machine.kick.outcome', before: { attempt: attempt!.seq }, after: { outcome: 'done', playerId: demo } });
    expect(await floorOf()).toMatchObject({ session: { status: 'disconnected' }, creditsCents: 1_000 });
    // Nobody on the machine to kick: 40404.
    await sessions.leave(demo);
    const none = await act('POST', AdminFloorPath.kick, { reason: 'again' });
    expect(none.json().code).toBe(Code.NoOpenSession);
  });

  it("cashes the session out to the player's wallet", async () => {
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    const response = await act('POST', AdminFloorPath.cashOut, { reason: 'player asked by phone' });
    expect(response.statusCode).toBe(200);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 1_000);
    expect(conn.last('cashedOut')).toMatchObject({ amountCents: 1_000 });
    expect((await floorOf()).creditsCents).toBe(0);
  });

  it('takes a machine out of service (lobby not available, no new session) and back', async () => {
    await sessions.leave(demo);
    const out = await act('PUT', AdminFloorPath.service, { inService: false, reason: 'glass cracked' });
    expect(out.statusCode).toBe(200);
    expect((await floorOf()).outOfService).toBe('glass cracked');
    expect(await codeOf(sessions.join(demo, machine, new FakeConnection()))).toBe(Code.MachineNotAvailable);
    const back = await act('PUT', AdminFloorPath.service, { inService: true, reason: 'glass replaced' });
    expect(back.statusCode).toBe(200);
    expect((await floorOf()).outOfService).toBeNull();
    expect((await auditRows()).slice(-2).map((row) => [row.action, row.reason])).toEqual([
      ['machine.out_of_service', 'glass cracked'],
      ['machine.in_service', 'glass replaced'],
    ]);
  });

  it('emergency stop: the cabinet refuses every command, the player sees why; release makes cash out possible', async () => {
    const stop = await act('PUT', AdminFloorPath.emergencyStop, { stopped: true, reason: 'smoke from cabinet' });
    expect(stop.statusCode).toBe(200);
    expect(stop.json()).toMatchObject({ ok: true, delivered: true });
    await sessions.drain();
    expect(conn.last('machine')).toMatchObject({ machineId: machine, emergencyStop: 'smoke from cabinet' });
    expect((await floorOf()).emergencyStop).toMatchObject({ reason: 'smoke from cabinet', by: 'staff1' });
    expect(await codeOf(sessions.spin(demo, 'after-stop'))).toBe(Code.MachineStopped);
    expect(await codeOf(sessions.cashOut(demo))).toBe(Code.MachineStopped);
    // Staff's cash out fails too, and the trail says so: the attempt, then its failure, never a cash out.
    const refused = await act('POST', AdminFloorPath.cashOut, { reason: 'player asked by phone' });
    expect(refused.json().code).toBe(Code.MachineStopped);
    const [attempt, outcome] = await lastAudit(2);
    expect(attempt).toMatchObject({ action: 'machine.cash_out', after: { outcome: 'requested' } });
    expect(outcome).toMatchObject({ action: 'machine.cash_out.outcome', before: { attempt: attempt!.seq }, after: { outcome: 'failed', code: Code.MachineStopped } });
    // The cabinet itself refuses too, whoever asks.
    expect((await cabinets.sendCommand(machine, { type: 'spin' })).reason).toBe('emergency_stop');
    // A cabinet that restarts keeps the stop (its memory) and the server sends its record again.
    cabinets.restart(machine);
    await sessions.drain();
    expect(cabinets.get(machine)!.emergencyStop).toBe('smoke from cabinet');

    const release = await act('PUT', AdminFloorPath.emergencyStop, { stopped: false, reason: 'fire brigade: all clear' });
    expect(release.statusCode).toBe(200);
    await sessions.drain();
    expect(conn.last('machine').emergencyStop).toBeUndefined();
    const before = (await walletBalance(t.ctx.db, demo)).balance;
    await sessions.cashOut(demo);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + 1_000);
  });

  it('gives staff a video grant of their own for any machine; the player keeps theirs', async () => {
    const player = await t.app.inject({ method: 'POST', url: path(AdminFloorPath.video), headers: t.auth(playerToken) });
    expect(player.json().code).toBe(Code.RoleNotAllowed);
    const other = (await t.ctx.db.query<{ id: number }>('SELECT id FROM machines WHERE id <> $1 ORDER BY id LIMIT 1', [machine])).rows[0]!.id;
    for (const machineId of [machine, other]) {
      const response = await t.app.inject({ method: 'POST', url: path(AdminFloorPath.video, machineId), headers: t.auth(staffToken) });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ grant: `grant-0-${machineId}`, whepUrl: `/api/media/whep/${machineId}` });
      expect(sessions.wantsStream(machineId)).toBe(true);
    }
    expect(conn.closedWith).toBeNull();
  });

  it('pushes the floor over /ws/admin: the snapshot first, then each change', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const refused = await TestSocket.open(`ws://127.0.0.1:${port}/ws/admin?token=${playerToken}`);
    await refused.next('logout');
    expect((await refused.closed).code).toBe(WsCloseCode.InvalidToken);

    const socket = await TestSocket.open(`ws://127.0.0.1:${port}/ws/admin?token=${staffToken}`);
    const first = await socket.next('floor');
    expect((first.data.machines as FloorMachine[]).some((m) => m.machineId === machine)).toBe(true);
    const after = socket.messages.length;
    await act('PUT', AdminFloorPath.service, { inService: false, reason: 'cleaning' });
    const pushed = await socket.next('machine', 3_000, after);
    expect(pushed.data).toMatchObject({ machineId: machine, outOfService: 'cleaning' });
    await act('PUT', AdminFloorPath.service, { inService: true, reason: 'clean' });
    // A player writing in the support chat is announced to the console.
    const beforeChat = socket.messages.length;
    await t.app.inject({
      method: 'POST',
      url: '/api/chat/send-message',
      headers: t.auth(playerToken),
      payload: { chatId: `${demo}-support`, contactId: 'support', messageText: 'hello?' },
    });
    expect((await socket.next('chat', 3_000, beforeChat)).data).toEqual({
      conversation: { playerId: demo, username: 'demo', lastMessage: 'hello?', lastMessageTime: expect.any(String), waiting: true },
      message: { from: 'player', staffName: null, message: 'hello?', time: expect.any(String) },
    });
    // So is a staff reply (another console shows it at once), with the conversation no longer waiting.
    const beforeReply = socket.messages.length;
    await t.app.inject({ method: 'POST', url: `/api/admin/chat/conversations/${demo}/reply`, headers: t.auth(staffToken), payload: { message: 'on it' } });
    expect((await socket.next('chat', 3_000, beforeReply)).data).toMatchObject({
      conversation: { playerId: demo, lastMessage: 'on it', waiting: false },
      message: { from: 'staff', staffName: 'staff1', message: 'on it' },
    });
    await socket.close();
  });
});
