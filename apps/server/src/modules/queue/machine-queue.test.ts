/**
 * The queue for a busy machine (issue 29) against the real database and the real session rooms
 * (over fake cabinets): one entry per player, one holder per machine, a turn passed on when nobody
 * answers, a restart that keeps the line and its deadlines, removal on sign-out and breaks, the
 * remaining time sent again on reconnect, and a credits holder's grace before the line moves.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { Code, type QueueEntry, type QueueNotification } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { FakeCabinets } from '../../../test/doubles/fake-cabinets.js';
import { AppError } from '../../lib/errors.js';
import { SessionManager } from '../sessions/session-manager.js';
import { MachineQueue } from './machine-queue.js';

const TIMERS = { graceMs: 60_000, noCreditsTimeoutMs: 30_000, idleTimeoutMs: 120_000, countdownS: 10 };
const READY_MS = 60_000;

let t: TestApp;
let cabinets: FakeCabinets;
let sessions: SessionManager;
let demo: number;
let alice: number;
let bobby: number;
let machine: number;
let otherMachine: number;
/** Every `queue` push per player, in order. */
const pushes = new Map<number, QueueNotification[]>();

beforeAll(async () => {
  // The clock's own ticks are left out (an hour apart): each test ticks when it means to.
  t = await createTestApp(
    (config) => (config.queue = { readyCheckMs: READY_MS, tickMs: 3_600_000, defaultSessionS: 300 }),
  );
  const players = await t.ctx.db.query<{ id: number; username: string }>('SELECT id, username FROM players');
  const id = (name: string) => players.rows.find((p) => p.username === name)!.id;
  [demo, alice, bobby] = [id('demo'), id('alice'), id('bobby')];
  const machines = await t.ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 2');
  [machine, otherMachine] = machines.rows.map((r) => r.id) as [number, number];
  t.ctx.bus.subscribeAll((topic, message) => {
    const match = /^player\.(\d+)$/.exec(topic);
    const m = message as { event: string; data: QueueNotification };
    if (!match || m.event !== 'queue') return;
    const list = pushes.get(Number(match[1])) ?? [];
    list.push(m.data);
    pushes.set(Number(match[1]), list);
  });
});
afterAll(() => t.close());

beforeEach(async () => {
  t.ctx.queue.timers.readyCheckMs = READY_MS;
  cabinets = new FakeCabinets();
  sessions = new SessionManager(t.ctx, cabinets, { grant: async () => null }, TIMERS);
  await sessions.start();
  cabinets.connect(machine);
  cabinets.connect(otherMachine);
  await sessions.drain();
  pushes.clear();
});

afterEach(async () => {
  await sessions.tick(Date.now() + 10 * TIMERS.idleTimeoutMs).catch(() => {});
  const open = await t.ctx.db.query<{ player_id: number }>(
    "SELECT player_id FROM slot_sessions WHERE status <> 'closed'",
  );
  for (const { player_id } of open.rows) await sessions.leave(player_id).catch(() => {});
  await sessions.stop();
  // The next test starts with no line (a test's own clean-up, not a writer of the product).
  await t.ctx.db.query('DELETE FROM machine_queue');
  await t.ctx.db.query('DELETE FROM player_breaks');
});

async function expectCode(promise: Promise<unknown>, code: number) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

const lastPush = (playerId: number) => pushes.get(playerId)?.at(-1);
const holders = async (machineId: number) =>
  (
    await t.ctx.db.query<{ player_id: number }>(
      'SELECT player_id FROM machine_queue WHERE machine_id = $1 AND ready_until IS NOT NULL',
      [machineId],
    )
  ).rows.map((r) => r.player_id);

/** Demo plays the machine; the others queue behind. */
async function busyMachine(...queued: number[]): Promise<QueueEntry[]> {
  await sessions.join(demo, machine, new FakeConnection());
  const entries: QueueEntry[] = [];
  for (const player of queued) entries.push(await t.ctx.queue.join(player, machine));
  return entries;
}

describe('joining the line', () => {
  it('gives 50 parallel joins the places 1..50, and the freed machine exactly one holder', async () => {
    const created = await t.ctx.db.query<{ id: number }>(
      `INSERT INTO players (username, email, name, lastname, password_hash, roles)
       SELECT 'queuer' || g, 'queuer' || g || '@reel.test', 'Q', 'Q', 'x', ARRAY['user'] FROM generate_series(1, 50) g RETURNING id`,
    );
    const ids = created.rows.map((r) => r.id);
    await sessions.join(demo, machine, new FakeConnection());
    const entries = await Promise.all(ids.map((id) => t.ctx.queue.join(id, machine)));
    expect(entries.map((e) => e.position).sort((a, b) => a - b)).toEqual(ids.map((_, i) => i + 1));
    expect(entries.every((e) => e.ready === null && e.etaS > 0)).toBe(true);

    await sessions.leave(demo);
    await vi.waitFor(async () => expect(await holders(machine)).toHaveLength(1));
    // Ticks from two servers at once hand out no second seat.
    await Promise.all([
      t.ctx.queue.tick(),
      t.ctx.queue.tick(),
      new MachineQueue({ db: t.ctx.db, bus: t.ctx.bus, breaks: t.ctx.protection.breaks }).tick(),
    ]);
    const [holder] = await holders(machine);
    const first = entries.find((e) => e.position === 1)!;
    expect(holder).toBe(ids[entries.indexOf(first)]);
    // The table itself refuses a second holder.
    await expect(
      t.ctx.db.query(
        "UPDATE machine_queue SET ready_until = now() + interval '1 minute' WHERE machine_id = $1 AND player_id <> $2",
        [machine, holder],
      ),
    ).rejects.toMatchObject({ code: '23505' });

    // Nobody else takes the held seat; the holder does, and the line moves up.
    await expectCode(sessions.join(alice, machine, new FakeConnection()), Code.MachineHeldForQueue);
    await sessions.join(holder!, machine, new FakeConnection());
    expect(lastPush(holder!)).toEqual({ entry: null, ended: 'seated' });
    const second = ids[entries.findIndex((e) => e.position === 2)]!;
    expect(lastPush(second)?.entry).toMatchObject({ position: 1, length: 49, ready: null });
    await t.ctx.db.query('DELETE FROM machine_queue WHERE player_id = ANY($1)', [ids]);
  });

  it('refuses with catalogue codes: free machine, queued elsewhere, while playing, not available, not in a queue', async () => {
    await expectCode(t.ctx.queue.join(alice, machine), Code.QueueMachineFree);
    await busyMachine(alice);
    await expectCode(t.ctx.queue.join(demo, otherMachine), Code.QueueWhilePlaying);
    await expectCode(t.ctx.queue.join(alice, otherMachine), Code.QueueElsewhere);
    expect((await t.ctx.queue.join(alice, machine)).position).toBe(1); // the same line again: the same entry
    cabinets.disconnect(otherMachine);
    await sessions.drain();
    await expectCode(t.ctx.queue.join(bobby, otherMachine), Code.QueueNotQueueable);
    const token = await t.login('bobby', 'bobby1234');
    const leave = await t.app.inject({ method: 'DELETE', url: '/api/player/queue', headers: t.auth(token) });
    expect(leave.statusCode).toBe(404);
    expect(leave.json()).toMatchObject({ status: false, code: Code.NotInQueue });
  });
});

describe('the ready check', () => {
  it('passes the turn to the next when nobody answers', async () => {
    t.ctx.queue.timers.readyCheckMs = 200;
    await busyMachine(alice, bobby);
    await sessions.leave(demo);
    await vi.waitFor(() => expect(lastPush(alice)?.entry?.ready).not.toBeNull());
    // Alice does not answer: her turn passes, Bobby gets his check.
    await vi.waitFor(
      async () => {
        await t.ctx.queue.tick();
        expect(lastPush(bobby)?.entry).toMatchObject({
          position: 1,
          length: 1,
          ready: expect.objectContaining({ remainingMs: expect.any(Number) }),
        });
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(pushes.get(alice)?.filter((p) => p.ended === 'passed')).toHaveLength(1);
    expect(await holders(machine)).toEqual([bobby]);
    await expectCode(sessions.join(alice, machine, new FakeConnection()), Code.MachineHeldForQueue);
  });

  it('keeps the line and its deadline through a restart, and passes an expired turn once', async () => {
    await busyMachine(alice, bobby);
    await sessions.leave(demo);
    await vi.waitFor(async () => expect(await holders(machine)).toEqual([alice]));
    const stored = await t.ctx.db.query<{ ready_until: Date }>(
      'SELECT ready_until FROM machine_queue WHERE player_id = $1',
      [alice],
    );
    await sessions.stop();

    // A new server process: a queue of its own over the same table.
    const restarted = new MachineQueue({
      db: t.ctx.db,
      bus: t.ctx.bus,
      breaks: t.ctx.protection.breaks,
      timers: { readyCheckMs: READY_MS },
    });
    const entry = await restarted.entry(alice);
    expect(entry?.ready?.until).toBe(stored.rows[0]!.ready_until.toISOString());
    expect(entry?.ready?.remainingMs).toBeGreaterThan(0);
    expect(entry?.ready?.remainingMs).toBeLessThanOrEqual(READY_MS);
    expect((await restarted.entry(bobby))?.position).toBe(2);
    await restarted.tick();
    expect(await holders(machine)).toEqual([alice]);

    // The deadline passes while two servers tick: the turn passes once.
    await t.ctx.db.query(
      "UPDATE machine_queue SET ready_until = now() - interval '1 second' WHERE player_id = $1",
      [alice],
    );
    await Promise.all([restarted.tick(), t.ctx.queue.tick()]);
    expect(await holders(machine)).toEqual([bobby]);
    expect(pushes.get(alice)?.filter((p) => p.ended === 'passed')).toHaveLength(1);
    restarted.close();
    sessions = new SessionManager(t.ctx, cabinets, { grant: async () => null }, TIMERS);
    await sessions.start();
  });

  it('sends the remaining time again when the player reconnects', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const token = await t.login('alice', 'alice1234');
    await busyMachine(alice);
    await sessions.leave(demo);
    await vi.waitFor(async () => expect(await holders(machine)).toEqual([alice]));

    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws/notifications?token=${token}`);
    const seen: { event: string; data: QueueNotification }[] = [];
    socket.on('message', (raw) => seen.push(JSON.parse(String(raw))));
    await vi.waitFor(() => expect(seen.some((m) => m.event === 'queue')).toBe(true));
    const resent = seen.find((m) => m.event === 'queue')!.data.entry!;
    expect(resent).toMatchObject({ machineId: machine, position: 1 });
    expect(resent.ready!.remainingMs).toBeGreaterThan(0);
    expect(resent.ready!.remainingMs).toBeLessThanOrEqual(READY_MS);
    socket.close();
  });
});

describe('leaving the line', () => {
  it('removes the entry when the player signs out or takes a break, and on a DELETE', async () => {
    await sessions.join(demo, machine, new FakeConnection());
    const post = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/player/queue',
        headers: t.auth(token),
        payload: { machineId: machine },
      });

    const aliceToken = await t.login('alice', 'alice1234');
    expect((await post(aliceToken)).json()).toMatchObject({
      status: true,
      entry: { machineId: machine, position: 1, length: 1 },
    });
    await t.app.inject({ method: 'POST', url: '/api/player/logout', headers: t.auth(aliceToken) });
    await vi.waitFor(async () => expect(await t.ctx.queue.entry(alice)).toBeNull());
    expect(lastPush(alice)).toEqual({ entry: null, ended: 'removed' });

    const bobbyToken = await t.login('bobby', 'bobby1234');
    expect((await post(bobbyToken)).json()).toMatchObject({ entry: { position: 1 } });
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/player/break',
      headers: t.auth(bobbyToken),
      payload: { period: 'cool_off_24h' },
    });
    expect(taken.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await t.ctx.queue.entry(bobby)).toBeNull());
    // On a break, the queue refuses the player too.
    await expectCode(t.ctx.queue.join(bobby, machine), Code.CoolingOff);

    const again = await t.login('alice', 'alice1234');
    expect((await post(again)).json()).toMatchObject({ entry: { position: 1 } });
    const left = await t.app.inject({ method: 'DELETE', url: '/api/player/queue', headers: t.auth(again) });
    expect(left.json()).toMatchObject({ status: true });
    expect(await t.ctx.queue.entry(alice)).toBeNull();
    expect(lastPush(alice)).toEqual({ entry: null, ended: 'left' });
  });
});

describe('the grace of a player holding credits', () => {
  it('keeps the machine through the reconnect grace before the line moves, then seats the first in line', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    await sessions.cashIn(demo, 2_000, 'queue-grace');
    await sessions.disconnect(demo, conn);
    // Waiting (the player may come back): queueable, but nobody gets the seat.
    expect((await t.ctx.queue.join(alice, machine)).ready).toBeNull();
    await t.ctx.queue.tick();
    await sessions.tick(Date.now() + TIMERS.graceMs - 5_000);
    await t.ctx.queue.tick();
    expect(await holders(machine)).toEqual([]);
    expect((await t.ctx.queue.entry(alice))?.ready).toBeNull();

    await sessions.tick(Date.now() + TIMERS.graceMs + 1_000);
    await vi.waitFor(() => expect(lastPush(alice)?.entry?.ready?.remainingMs).toBeGreaterThan(0));
    const aliceConn = new FakeConnection();
    await sessions.join(alice, machine, aliceConn);
    expect(aliceConn.last('joined')).toMatchObject({ machineId: machine, resumed: false });
    expect(await t.ctx.queue.entry(alice)).toBeNull();
    expect(lastPush(alice)).toEqual({ entry: null, ended: 'seated' });
  });
});
