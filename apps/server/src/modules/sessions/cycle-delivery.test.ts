/**
 * Every game cycle reaches the records exactly once, whatever is killed when (issue 23): a real
 * simulated cabinet (its game, its critical memory, its agent client) on the real server and
 * PostgreSQL, killed at the worst moments.
 */
import fs from 'node:fs';
import path from 'node:path';
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

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  agentUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws/agent`;
  keys = JSON.parse(fs.readFileSync(path.join(t.ctx.config.dataDir, 'machine-keys.json'), 'utf8')) as Record<string, string>;
  alice = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'alice'")).rows[0]!.id;
});
afterAll(() => t.close());

/** One cabinet process: its machine on a memory, and its agent connection to the server. */
class CabinetProcess {
  readonly machine: SlotMachine;
  private readonly agent: AgentClient;
  constructor(machineId: number, store: CrashableStore, values: number[]) {
    this.machine = new SlotMachine({ machineId, timing: FAST, memory: store, rng: new Rng(scripted(values)) });
    this.agent = new AgentClient({
      url: agentUrl,
      agentId: `test-${machineId}`,
      machines: [{ machine: this.machine, key: keys[String(machineId)]!, stream: null, videoType: 'screen', bands: [] }],
    });
    this.agent.start();
    running.push(this);
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
    const conn = new FakeConnection();
    await t.ctx.sessions.join(alice, machineId, conn);
    const sessionId = conn.last('joined').session.sessionId as string;
    const before = (await walletBalance(t.ctx.db, alice)).balance;
    await t.ctx.sessions.cashIn(alice, 5_000, 'story-cash-in');
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
    await t.ctx.sessions.cashOut(alice);
    await t.ctx.sessions.drain();

    const games = await recordedGames(sessionId);
    expect(games.map((g) => g.game_id)).toEqual([
      `${machineId}-1`,
      `${machineId}-2`,
      triggerId,
      ...Array.from({ length: 10 }, (_, i) => `${triggerId}-f${i + 1}`),
    ]);
    const { rows } = await t.ctx.db.query('SELECT malfunction FROM slot_sessions WHERE id = $1', [sessionId]);
    expect(rows[0]).toEqual({ malfunction: null });
    const meters = second.machine.meters;
    expect(meters.cashOutCents).toBe(5_000 + meters.coinOutCents - meters.coinInCents);
    const results = games.reduce((sum, g) => sum + g.win_cents - g.bet_cents, 0);
    expect((await walletBalance(t.ctx.db, alice)).balance).toBe(before + results);
    expect(results).toBe(meters.coinOutCents - meters.coinInCents);
    await expectBooksBalance();
  });
});
