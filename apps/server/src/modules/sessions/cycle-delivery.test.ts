/**
 * Every game cycle reaches the records exactly once, whatever is killed when (issue 23): a real
 * simulated cabinet (its game, its critical memory, its agent client) on the real server and
 * PostgreSQL, killed at the worst moments.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { SlotMachine } from '../../../../cabinet/src/game/machine.js';
import { AgentClient } from '../../../../cabinet/src/agent/agent-client.js';
import { Rng } from '../../../../cabinet/src/game/rng.js';
import { CrashableStore, findStops, scripted } from '../../../../cabinet/src/game/test-doubles.js';
import { auditLedger, walletBalance } from '../ledger/ledger.js';
import { auditPlayers } from '../ledger/player-audit.js';

const FAST = { spinDurationMs: 5, reelStaggerMs: 1, autoplayGapMs: 2, cashOutDurationMs: 2 };
/** A paid spin's draw: its stops, then the jackpot roll (1: no jackpot). */
const PLAIN = findStops((ev) => ev.scatterCount === 0 && ev.linePay > 0);
const TRIGGER = findStops((ev) => ev.scatterCount === 3);
const paid = (stops: number[]) => [...stops, 1];

let t: TestApp;
let agentUrl: string;
let keys: Record<string, string>;
let alice: number;
let bobby: number;
let demo: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  agentUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws/agent`;
  keys = JSON.parse(fs.readFileSync(path.join(t.ctx.config.dataDir, 'machine-keys.json'), 'utf8')) as Record<string, string>;
  const players = await t.ctx.db.query<{ id: number; username: string }>('SELECT id, username FROM players');
  const idOf = (name: string) => players.rows.find((p) => p.username === name)!.id;
  alice = idOf('alice');
  bobby = idOf('bobby');
  demo = idOf('demo');
});
afterAll(() => t.close());

/** One cabinet process: its machine on a memory, and its agent connection to the server. */
class CabinetProcess {
  readonly machine: SlotMachine;
  private readonly agent: AgentClient;
  constructor(machineId: number, store: CrashableStore, values: number[], options: { connect?: boolean; cycleAckTimeoutMs?: number } = {}) {
    this.machine = new SlotMachine({ machineId, timing: FAST, memory: store, rng: new Rng(scripted(values)) });
    this.agent = new AgentClient({
      url: agentUrl,
      agentId: `test-${machineId}`,
      machines: [{ machine: this.machine, key: keys[String(machineId)]!, stream: null, videoType: 'screen', bands: [] }],
      ...(options.cycleAckTimeoutMs ? { cycleAckTimeoutMs: options.cycleAckTimeoutMs } : {}),
    });
    if (options.connect ?? true) this.connect();
    running.push(this);
  }
  connect() {
    this.agent.start();
  }
  /** kill -9: nothing of this process runs any more; its socket closes. */
  async kill() {
    this.machine.dispose();
    await this.agent.stop();
  }
}
const running: CabinetProcess[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) await p.kill();
  await t.ctx.sessions.drain();
});

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function recordedGames(sessionId: string) {
  const { rows } = await t.ctx.db.query<{ game_id: string; bet_cents: number; win_cents: number }>(
    'SELECT game_id, bet_cents, win_cents FROM game_cycles WHERE session_id = $1 ORDER BY id',
    [sessionId],
  );
  return rows;
}

/** The cabinet is connected and its meters were compared with the records. */
async function settledOn(machineId: number, machine: SlotMachine) {
  await until(() => machine.state === 'idle' && t.ctx.sessions.machineView(machineId).cabinetState === 'idle', 'an idle, connected cabinet');
  await t.ctx.sessions.drain();
}

/** Joins, loads credits, and returns the session id and the wallet before. */
async function play(playerId: number, machineId: number, cents: number) {
  const conn = new FakeConnection();
  await t.ctx.sessions.join(playerId, machineId, conn);
  const before = (await walletBalance(t.ctx.db, playerId)).balance;
  await t.ctx.sessions.cashIn(playerId, cents, `cash-in-${machineId}-${cents}`);
  return { sessionId: conn.last('joined').session.sessionId as string, before };
}

/** Cash out and leave: no malfunction, and the wallet moved by exactly the recorded results. */
async function cashOutByTheRecords(playerId: number, sessionId: string, before: number) {
  await t.ctx.sessions.cashOut(playerId);
  await t.ctx.sessions.leave(playerId);
  await t.ctx.sessions.drain();
  const { rows } = await t.ctx.db.query('SELECT status, malfunction FROM slot_sessions WHERE id = $1', [sessionId]);
  expect(rows[0]).toEqual({ status: 'closed', malfunction: null });
  const results = (await recordedGames(sessionId)).reduce((sum, g) => sum + g.win_cents - g.bet_cents, 0);
  expect((await walletBalance(t.ctx.db, playerId)).balance).toBe(before + results);
  await expectBooksBalance();
}

async function expectBooksBalance() {
  expect((await auditLedger(t.ctx.db)).ok).toBe(true);
  const players = await auditPlayers(t.ctx.db);
  expect(players.ok, JSON.stringify(players)).toBe(true);
}

describe('game cycles under kill -9', () => {
  it('paid spin → 10 free spins → kill before the paid spin is acknowledged → reconnect → cash out: every game recorded once, no malfunction', async () => {
    const machineId = 5;
    const store = new CrashableStore();
    const first = new CabinetProcess(machineId, store, [...paid(PLAIN), ...paid(PLAIN), ...paid(TRIGGER)]);
    await settledOn(machineId, first.machine);
    const { sessionId, before } = await play(alice, machineId, 5_000);
    await t.ctx.sessions.spin(alice, 'story-1');
    await t.ctx.sessions.spin(alice, 'story-2');
    await until(async () => (await recordedGames(sessionId)).length === 2, 'two recorded games');

    // The paid spin that triggers the bonus: its result is committed to the cabinet's memory, and
    // the process dies right there, before its cycle leaves for the server.
    store.dieAfter = (image) => image.meters.bonusTriggers === 1 && image.incompleteGame === null;
    void t.ctx.sessions.spin(alice, 'story-trigger').catch(() => {});
    await until(() => store.dead, 'the kill after the paid spin');
    await first.kill();
    const triggerId = `${machineId}-3`;
    expect((await recordedGames(sessionId)).map((g) => g.game_id)).not.toContain(triggerId);

    // The restarted cabinet plays its ten free spins, reconnects, and the player cashes out.
    store.revive();
    const second = new CabinetProcess(machineId, store, Array.from({ length: 10 }, () => PLAIN).flat());
    await until(() => second.machine.meters.freeGamesPlayed === 10, 'the ten free spins');
    await settledOn(machineId, second.machine);
    const meters = second.machine.meters;
    await cashOutByTheRecords(alice, sessionId, before);

    const games = await recordedGames(sessionId);
    expect(games.map((g) => g.game_id)).toEqual([
      `${machineId}-1`,
      `${machineId}-2`,
      triggerId,
      ...Array.from({ length: 10 }, (_, i) => `${triggerId}-f${i + 1}`),
    ]);
    expect(games.reduce((sum, g) => sum + g.win_cents - g.bet_cents, 0)).toBe(meters.coinOutCents - meters.coinInCents);
    await until(() => second.machine.unacknowledgedGames.length === 0, 'every game acknowledged');
  });

  it('an acknowledgement lost to a kill (the server after its commit, or the cabinet before it heard it): the game is sent again and stored once', async () => {
    const machineId = 6;
    const store = new CrashableStore();
    const first = new CabinetProcess(machineId, store, [...paid(PLAIN), ...paid(PLAIN)]);
    await settledOn(machineId, first.machine);
    const { sessionId, before } = await play(bobby, machineId, 5_000);
    const hub = t.ctx.cabinets;
    const acknowledge = hub.acknowledgeCycle.bind(hub);
    hub.acknowledgeCycle = () => {};
    try {
      await t.ctx.sessions.spin(bobby, 'lost-ack-1');
      await until(async () => (await recordedGames(sessionId)).length === 1, 'the recorded game');
      // Unacknowledged, the cabinet takes no new bet (machine-play.ts `spinRefusal`).
      expect(await t.ctx.sessions.spin(bobby, 'lost-ack-2')).toMatchObject({ outcome: 'rejected', reason: 'unacknowledged_games' });
      expect(first.machine.unacknowledgedGames.map((g) => g.gameId)).toEqual([`${machineId}-1`]);
      await first.kill();
    } finally {
      hub.acknowledgeCycle = acknowledge;
    }
    store.revive();
    const second = new CabinetProcess(machineId, store, []);
    await settledOn(machineId, second.machine);
    await until(() => second.machine.unacknowledgedGames.length === 0, 'the acknowledgement');
    await t.ctx.sessions.spin(bobby, 'lost-ack-3');
    await until(async () => (await recordedGames(sessionId)).length === 2, 'the next game recorded');
    expect((await recordedGames(sessionId)).map((g) => g.game_id)).toEqual([`${machineId}-1`, `${machineId}-2`]);
    const { rows } = await t.ctx.db.query('SELECT spins FROM slot_sessions WHERE id = $1', [sessionId]);
    expect(rows[0]).toEqual({ spins: 2 });
    await cashOutByTheRecords(bobby, sessionId, before);
  });

  it('a bonus round of 21 games played while the server is away: every game recorded once, in order', async () => {
    const machineId = 7;
    const store = new CrashableStore();
    const first = new CabinetProcess(machineId, store, [...paid(PLAIN), ...paid(TRIGGER)]);
    await settledOn(machineId, first.machine);
    const { sessionId, before } = await play(demo, machineId, 5_000);
    await t.ctx.sessions.spin(demo, 'long-1');
    await until(() => first.machine.unacknowledgedGames.length === 0, 'the first game acknowledged');
    store.dieAfter = (image) => image.meters.bonusTriggers === 1 && image.incompleteGame === null;
    void t.ctx.sessions.spin(demo, 'long-trigger').catch(() => {});
    await until(() => store.dead, 'the kill after the paid spin');
    await first.kill();

    // Back without a server: the first free spin triggers ten more.
    store.revive();
    const second = new CabinetProcess(machineId, store, [...TRIGGER, ...Array.from({ length: 19 }, () => PLAIN).flat()], { connect: false });
    await until(() => second.machine.meters.freeGamesPlayed === 20 && second.machine.state === 'idle', 'twenty free spins');
    expect(store.load()!.lastGames).toHaveLength(10);
    expect(second.machine.unacknowledgedGames).toHaveLength(21);
    second.connect();
    await settledOn(machineId, second.machine);
    await until(() => second.machine.unacknowledgedGames.length === 0, 'the acknowledgements');
    const triggerId = `${machineId}-2`;
    expect((await recordedGames(sessionId)).map((g) => g.game_id)).toEqual([
      `${machineId}-1`,
      triggerId,
      ...Array.from({ length: 20 }, (_, i) => `${triggerId}-f${i + 1}`),
    ]);
    await cashOutByTheRecords(demo, sessionId, before);
  });

  it('PostgreSQL killing the insert of a game: the game is sent again and recorded, then the next one, in order, and the cash out is booked on them', async () => {
    const machineId = 2;
    const store = new CrashableStore();
    const cabinet = new CabinetProcess(machineId, store, [...paid(PLAIN), ...paid(PLAIN)], { cycleAckTimeoutMs: 300 });
    await settledOn(machineId, cabinet.machine);
    const { sessionId, before } = await play(alice, machineId, 5_000);
    const locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
    try {
      // The insert of the first game waits on a lock, and its database backend is killed there.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE game_cycles IN EXCLUSIVE MODE');
      await t.ctx.sessions.spin(alice, 'pg-1');
      let backend = 0;
      await until(async () => {
        const { rows } = await locker.query<{ pid: number }>(
          "SELECT pid FROM pg_locks WHERE relation = 'game_cycles'::regclass AND NOT granted",
        );
        backend = rows[0]?.pid ?? 0;
        return backend > 0;
      }, 'the blocked insert');
      await locker.query('SELECT pg_terminate_backend($1)', [backend]);
      await locker.query('ROLLBACK');
    } finally {
      await locker.end();
    }
    // The database is back: the cabinet sends the game again (no new bet until it is stored).
    await until(() => cabinet.machine.unacknowledgedGames.length === 0, 'the acknowledgement');
    await t.ctx.sessions.spin(alice, 'pg-2');
    await until(() => cabinet.machine.unacknowledgedGames.length === 0 && cabinet.machine.state === 'idle', 'the next game acknowledged');
    expect((await recordedGames(sessionId)).map((g) => g.game_id)).toEqual([`${machineId}-1`, `${machineId}-2`]);
    const { rows } = await t.ctx.db.query('SELECT spins FROM slot_sessions WHERE id = $1', [sessionId]);
    expect(rows[0]).toEqual({ spins: 2 });
    await cashOutByTheRecords(alice, sessionId, before);
  });

  it('a jackpot game whose transaction is killed on the jackpot: nothing of it is stored, and the re-sent game is recorded and its jackpot paid, once', async () => {
    const machineId = 3;
    const store = new CrashableStore();
    // PLAIN stops, then the jackpot roll 0: a jackpot.
    const cabinet = new CabinetProcess(machineId, store, [...PLAIN, 0], { cycleAckTimeoutMs: 300 });
    await settledOn(machineId, cabinet.machine);
    const { sessionId, before } = await play(demo, machineId, 5_000);
    const locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
    try {
      // The game's transaction waits on the jackpot levels, and its database backend is killed there
      // (before issue 30 the record had committed by then, and the re-sent game paid nothing).
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE jackpots IN EXCLUSIVE MODE');
      await t.ctx.sessions.spin(demo, 'jackpot-1');
      let backend = 0;
      await until(async () => {
        const { rows } = await locker.query<{ pid: number }>("SELECT pid FROM pg_locks WHERE relation = 'jackpots'::regclass AND NOT granted");
        backend = rows[0]?.pid ?? 0;
        return backend > 0;
      }, 'the blocked jackpot');
      await locker.query('SELECT pg_terminate_backend($1)', [backend]);
      await locker.query('ROLLBACK');
    } finally {
      await locker.end();
    }
    await until(() => cabinet.machine.unacknowledgedGames.length === 0, 'the acknowledgement');
    expect((await recordedGames(sessionId)).map((g) => g.game_id)).toEqual([`${machineId}-1`]);
    const { rows: paid } = await t.ctx.db.query<{ amount_cents: number }>(
      "SELECT amount_cents FROM ledger_operations WHERE kind = 'jackpot' AND idempotency_key = $1",
      [`jackpot:${machineId}:${machineId}-1:${sessionId}`],
    );
    expect(paid).toHaveLength(1);
    await t.ctx.sessions.cashOut(demo);
    await t.ctx.sessions.leave(demo);
    await t.ctx.sessions.drain();
    const results = (await recordedGames(sessionId)).reduce((sum, g) => sum + g.win_cents - g.bet_cents, 0);
    expect((await walletBalance(t.ctx.db, demo)).balance).toBe(before + results + paid[0]!.amount_cents);
    await expectBooksBalance();
  });
});

describe('a spin sent again with its command id', () => {
  it('gets its recorded game again (its first cycle may have gone to a socket that was gone), and nothing plays twice', async () => {
    const machineId = 8;
    const cabinet = new CabinetProcess(machineId, new CrashableStore(), [...paid(PLAIN), ...paid(PLAIN)]);
    await settledOn(machineId, cabinet.machine);
    const conn = new FakeConnection();
    await t.ctx.sessions.join(bobby, machineId, conn);
    const before = (await walletBalance(t.ctx.db, bobby)).balance;
    await t.ctx.sessions.cashIn(bobby, 5_000, `cash-in-${machineId}-again`);
    const sessionId = conn.last('joined').session.sessionId as string;

    await t.ctx.sessions.spin(bobby, 'again-1');
    await until(() => conn.all('cycle').length === 1, 'the first cycle');
    const first = conn.last('cycle') as { commandId: string; gameId: string };
    expect(first).toMatchObject({ commandId: 'again-1', gameId: `${machineId}-1`, handPay: false });
    await t.ctx.sessions.drain();

    // The cabinet answers the same command id as a duplicate: the game it played, not a new one.
    expect(await t.ctx.sessions.spin(bobby, 'again-1')).toMatchObject({ duplicate: true });
    expect(conn.all('cycle')).toEqual([first, first]);
    // The machine view after it carries the credits of now.
    expect(conn.last('machine')).toMatchObject({ creditsCents: cabinet.machine.meters.creditsCents });
    expect((await recordedGames(sessionId)).map((g) => g.game_id)).toEqual([`${machineId}-1`]);
    await cashOutByTheRecords(bobby, sessionId, before);
  });
});
