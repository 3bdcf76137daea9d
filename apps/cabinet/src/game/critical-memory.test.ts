import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandResult, GameCycle } from '@reel/protocol';
import { FileMemoryStore, MEMORY_VERSION, RECALL_GAMES, newMemoryImage, type MemoryImage } from './critical-memory.js';
import { evaluateStops } from './engine.js';
import { SlotMachine } from './machine.js';
import { Rng } from './rng.js';
import { FREE_SPINS_AWARD } from '@reel/protocol';
import { CrashableStore, acknowledgingEveryGame, findStops, scripted } from './test-doubles.js';

const FAST = { spinDurationMs: 5, reelStaggerMs: 1, autoplayGapMs: 2, cashOutDurationMs: 2 };
const SLOW = { ...FAST, spinDurationMs: 60_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (check: () => boolean, what: string, timeoutMs = 3_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
};

const machines: SlotMachine[] = [];
function machine(opts: ConstructorParameters<typeof SlotMachine>[0]) {
  const m = new SlotMachine(opts);
  machines.push(m);
  return m;
}
afterEach(() => {
  for (const m of machines.splice(0)) m.dispose();
});

/** The meters of a sane memory follow from each other. */
function expectBalanced(image: MemoryImage) {
  const m = image.meters;
  expect(m.creditsCents).toBe(m.cashInCents - m.cashOutCents + m.coinOutCents - m.coinInCents);
}

describe('critical memory file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cabinet-memory-'));
    dirs.push(dir);
    return dir;
  };

  it('writes atomically, keeps the newest of rapid commits, and reads it back', async () => {
    const dir = tmp();
    const store = new FileMemoryStore(dir, 7);
    expect(store.load()).toBeNull();
    const image = newMemoryImage(7, new SlotMachine({ machineId: 7 }).meters);
    const commits: Promise<void>[] = [];
    for (let credits = 1; credits <= 20; credits++)
      commits.push(store.commit({ ...image, meters: { ...image.meters, creditsCents: credits } }));
    await Promise.all(commits);
    expect(store.load()!.meters.creditsCents).toBe(20);
    expect(fs.readdirSync(dir)).toEqual(['machine-7.json']);
  });

  it('a damaged file is moved aside and the machine starts with a new memory id', async () => {
    const dir = tmp();
    const store = new FileMemoryStore(dir, 8);
    const first = machine({ machineId: 8, timing: FAST, memory: store });
    await first.execute({ commandId: 'c1', type: 'credit_in', amountCents: 500 });
    const memoryId = first.recall().memoryId;
    const file = path.join(dir, 'machine-8.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('500', '900'));
    const logs: string[] = [];
    const restarted = machine({
      machineId: 8,
      timing: FAST,
      memory: new FileMemoryStore(dir, 8, (l) => logs.push(l)),
    });
    expect(restarted.meters.creditsCents).toBe(0);
    await restarted.ready;
    expect(restarted.recall().memoryId).not.toBe(memoryId);
    expect(logs[0]).toMatch(/unreadable \(checksum mismatch\)/);
    expect(fs.readdirSync(dir).some((f) => f.includes('.damaged-'))).toBe(true);
  });
});

describe('a machine restarted from its critical memory', () => {
  it('keeps its credits, bet level and fault, and answers a replayed credit or cash out with the first result', async () => {
    const store = new CrashableStore();
    const a = machine({ machineId: 1, timing: FAST, memory: store });
    await a.execute({ commandId: 'ci-1', type: 'credit_in', amountCents: 20_000 });
    await a.execute({ commandId: 'bet-1', type: 'set_bet_level', level: 2 });
    store.crash();

    const b = machine({ machineId: 1, timing: FAST, memory: store });
    expect(b.meters).toMatchObject({ creditsCents: 20_000, cashInCents: 20_000, betLevel: 2, betCents: 100 });
    const replay = await b.execute({ commandId: 'ci-1', type: 'credit_in', amountCents: 20_000 });
    expect(replay).toMatchObject({ outcome: 'ok', duplicate: true, creditsCents: 20_000 });
    expect(b.meters.creditsCents).toBe(20_000);

    const out = await b.execute({ commandId: 'co-1', type: 'cash_out' });
    expect(out.amountCents).toBe(20_000);
    store.crash();
    const c = machine({ machineId: 1, timing: FAST, memory: store });
    expect(c.meters.creditsCents).toBe(0);
    expect(await c.execute({ commandId: 'co-1', type: 'cash_out' })).toMatchObject({
      amountCents: 20_000,
      duplicate: true,
    });
    expect(c.recall().memoryId).toBe(a.recall().memoryId);

    await c.execute({ commandId: 'f-1', type: 'set_fault', fault: 'malfunction' });
    const d = machine({ machineId: 1, timing: FAST, memory: store });
    expect(d.state).toBe('malfunction');
  });

  it('a credit that was not durable yet is not acknowledged, and its replay credits it once', async () => {
    const store = new CrashableStore();
    store.autoFlush = false;
    const a = machine({ machineId: 2, timing: FAST, memory: store });
    let answered = false;
    void a.execute({ commandId: 'ci-2', type: 'credit_in', amountCents: 700 }).then(() => (answered = true));
    // The credit is on its way to the store (and everything the machine does before waiting on it is done).
    await until(() => store.waiting.some((image) => image.meters.creditsCents === 700), 'the credit to be written');
    expect(answered).toBe(false); // not durable, not acknowledged
    store.crash();
    const b = machine({ machineId: 2, timing: FAST, memory: store });
    expect(b.meters.creditsCents).toBe(0);
    store.autoFlush = true;
    expect(await b.execute({ commandId: 'ci-2', type: 'credit_in', amountCents: 700 })).toMatchObject({
      outcome: 'ok',
    });
    expect(b.meters.creditsCents).toBe(700);
  });

  it('a spin killed while the reels turn is played out after the restart with the same outcome, once', async () => {
    const stops = findStops((ev) => ev.linePay > 0 && ev.freeSpinsAwarded === 0);
    const store = new CrashableStore();
    const a = machine({ machineId: 3, timing: SLOW, memory: store, rng: new Rng(scripted([...stops, 1])) });
    await a.execute({ commandId: 'ci-3', type: 'credit_in', amountCents: 1_000 });
    void a.execute({ commandId: 'spin-3', type: 'spin' });
    await until(() => store.load()?.incompleteGame !== null, 'the game to be committed');
    expect(store.load()!.meters.creditsCents).toBe(980); // the bet is taken
    store.crash();

    const cycles: GameCycle[] = [];
    const b = machine({ machineId: 3, timing: FAST, memory: store });
    b.on('cycle', (c) => cycles.push(c));
    expect(b.state).toBe('in_game');
    expect(b.recall().incompleteGame).toEqual({ betCents: 20, freeSpin: false });
    // The server's retry of the same spin waits for the resumed game instead of starting another.
    const replay = await b.execute({ commandId: 'spin-3', type: 'spin' });
    await until(() => b.state === 'idle', 'idle');
    const win = evaluateStops(stops).linePay * 1;
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({
      gameId: '3-1',
      betCents: 20,
      winCents: win,
      creditsBeforeCents: 1_000,
      creditsAfterCents: 980 + win,
    });
    expect(replay.cycle?.gameId).toBe('3-1');
    expect(b.meters).toMatchObject({ creditsCents: 980 + win, gamesPlayed: 1 });
    const memory = store.load()!;
    expect(memory.incompleteGame).toBeNull();
    expect(memory.lastGames.map((g) => g.gameId)).toEqual(['3-1']);
    expectBalanced(memory);
  });

  it('a bonus round killed between free spins continues after the restart', async () => {
    const trigger = findStops((ev) => ev.scatterCount === 3);
    const plain = findStops((ev) => ev.scatterCount === 0);
    const store = new CrashableStore();
    const a = machine({
      machineId: 4,
      timing: { ...FAST, autoplayGapMs: 30 },
      memory: store,
      rng: new Rng(
        scripted([...trigger, 1, ...Array.from({ length: FREE_SPINS_AWARD }, () => plain).flat()]),
      ),
    });
    await a.execute({ commandId: 'ci-4', type: 'credit_in', amountCents: 1_000 });
    await a.execute({ commandId: 'spin-4', type: 'spin' });
    await until(
      () => a.meters.freeGamesPlayed >= 3 && store.load()!.incompleteGame === null,
      'three free spins',
    );
    store.crash();
    a.dispose();
    const left = store.load()!.meters.freeSpinsLeft;
    expect(left).toBeGreaterThan(0);

    const cycles: GameCycle[] = [];
    const b = machine({
      machineId: 4,
      timing: FAST,
      memory: store,
      rng: new Rng(scripted(Array.from({ length: 20 }, () => plain).flat())),
    });
    b.on('cycle', (c) => cycles.push(c));
    expect(b.state).toBe('in_bonus');
    await until(() => b.state === 'idle', 'the end of the bonus');
    expect(cycles.filter((c) => c.freeSpin)).toHaveLength(left);
    expect(b.meters.freeGamesPlayed).toBe(FREE_SPINS_AWARD);
    expectBalanced(store.load()!);
  });

  it('killed at any moment of a session, every durable image balances and keeps every acknowledged result', async () => {
    const store = new CrashableStore();
    const a = acknowledgingEveryGame(machine({ machineId: 5, timing: FAST, memory: store }));
    const acknowledged: CommandResult[] = [];
    const run = async (command: Parameters<SlotMachine['execute']>[0]) => {
      const r = await a.execute(command);
      acknowledged.push(r);
      // Each acknowledgement is already durable.
      const durable = store.load()!;
      if (command.type === 'credit_in' || command.type === 'cash_out')
        expect(durable.appliedMoney.map(([id]) => id)).toContain(command.commandId);
      if (command.type === 'spin' && r.outcome === 'ok')
        expect(durable.lastGames.map((g) => g.gameId)).toContain(r.cycle!.gameId);
      return r;
    };
    await run({ commandId: 'k-ci-1', type: 'credit_in', amountCents: 2_000 });
    for (let i = 0; i < 15; i++) {
      await run({ commandId: `k-spin-${i}`, type: 'spin' });
      await until(() => a.state === 'idle', 'idle', 10_000);
    }
    await run({ commandId: 'k-ci-2', type: 'credit_in', amountCents: 500 });
    await run({ commandId: 'k-co-1', type: 'cash_out' });
    expect(store.history.length).toBeGreaterThan(30);
    for (const data of store.history) {
      const image = JSON.parse(data) as MemoryImage;
      expectBalanced(image);
      // A restart from this image plays out what was in progress and ends balanced too.
      const probe = new CrashableStore();
      probe.durable = data;
      const b = machine({ machineId: 5, timing: FAST, memory: probe });
      await until(() => b.state === 'idle', 'the restarted machine to settle', 10_000);
      expectBalanced(probe.load() ?? image);
      b.dispose();
    }
  });
});

describe('the outbox of games the server has not acknowledged', () => {
  it('keeps every game of a bonus round longer than the recall ring, across a kill, until each is acknowledged', async () => {
    const trigger = findStops((ev) => ev.scatterCount === 3);
    const plain = findStops((ev) => ev.scatterCount === 0);
    const store = new CrashableStore();
    const free = (n: number) => Array.from({ length: n }, () => plain).flat();
    // The first free spin triggers ten more: 1 paid + 20 free games.
    const a = machine({ machineId: 6, timing: FAST, memory: store, rng: new Rng(scripted([...trigger, 1, ...trigger, ...free(19)])) });
    await a.execute({ commandId: 'ci-6', type: 'credit_in', amountCents: 1_000 });
    await a.execute({ commandId: 'spin-6', type: 'spin' });
    await until(() => a.state === 'idle' && a.meters.freeGamesPlayed === 2 * FREE_SPINS_AWARD, 'the bonus round');
    const played = a.unacknowledgedGames.map((g) => g.gameId);
    expect(played).toEqual(['6-1', ...Array.from({ length: 20 }, (_, i) => `6-1-f${i + 1}`)]);
    await until(() => store.load()!.unackedGames.length === 21, 'the durable outbox');
    expect(store.load()!.lastGames).toHaveLength(RECALL_GAMES);

    a.acknowledge('6-1');
    a.acknowledge('6-1-f1');
    a.acknowledge('no-such-game');
    await until(() => store.load()!.unackedGames.length === 19, 'the acknowledgements committed');
    store.crash();
    const b = machine({ machineId: 6, timing: FAST, memory: store });
    expect(b.unacknowledgedGames.map((g) => g.gameId)).toEqual(played.slice(2));
    for (const game of played.slice(2)) b.acknowledge(game);
    await until(() => store.load()!.unackedGames.length === 0, 'an empty outbox');
  });

  it('a game killed before its acknowledgement arrived is still in the outbox after the restart', async () => {
    const store = new CrashableStore();
    const a = machine({ machineId: 7, timing: FAST, memory: store });
    const sent: GameCycle[] = [];
    a.on('cycle', (c) => sent.push(c));
    await a.execute({ commandId: 'ci-7', type: 'credit_in', amountCents: 1_000 });
    await a.execute({ commandId: 'spin-7', type: 'spin' });
    await until(() => a.state === 'idle', 'idle', 5_000);
    expect(sent.map((c) => c.gameId)).toContain('7-1');
    store.crash();
    const b = machine({ machineId: 7, timing: FAST, memory: store });
    expect(b.unacknowledgedGames.map((g) => g.gameId)).toContain('7-1');
  });

  it('a paid game waits until the server acknowledged every earlier one; autoplay waits, then plays', async () => {
    const store = new CrashableStore();
    const waiting = newMemoryImage(8, { ...new SlotMachine({ machineId: 8 }).meters, creditsCents: 100_000 });
    waiting.unackedGames = [fakeGame('8-1'), fakeGame('8-2')];
    store.durable = JSON.stringify(waiting);
    const b = machine({ machineId: 8, timing: FAST, memory: store });
    expect(await b.execute({ commandId: 'spin-8a', type: 'spin' })).toMatchObject({ outcome: 'rejected', reason: 'unacknowledged_games' });
    await b.execute({ commandId: 'auto-8', type: 'autoplay', on: true });
    b.acknowledge('8-1');
    await sleep(50);
    expect(b.meters.gamesPlayed, 'no game while one is unacknowledged').toBe(0);
    expect(b.meters.autoplay, 'autoplay still on, waiting').toBe(true);
    b.acknowledge('8-2');
    await until(() => b.meters.gamesPlayed > 0, 'autoplay to play once acknowledged');
    await b.execute({ commandId: 'auto-8-off', type: 'autoplay', on: false });
  });
});

describe('a memory written by the previous version', () => {
  it('loads, and its last games go to the outbox (the server stores each once and acknowledges it)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cabinet-memory-v1-'));
    try {
      const current = newMemoryImage(9, new SlotMachine({ machineId: 9 }).meters);
      const { unackedGames: _none, ...rest } = { ...current, lastGames: [fakeGame('9-1'), fakeGame('9-2')] };
      const body = JSON.stringify({ ...rest, version: 1 });
      const sha256 = createHash('sha256').update(body).digest('hex');
      fs.writeFileSync(path.join(dir, 'machine-9.json'), JSON.stringify({ sha256, body }));
      const logs: string[] = [];
      const loaded = new FileMemoryStore(dir, 9, (l) => logs.push(l)).load()!;
      expect(loaded).toMatchObject({ version: MEMORY_VERSION, memoryId: current.memoryId });
      expect(loaded.unackedGames.map((g) => g.gameId)).toEqual(['9-1', '9-2']);
      expect(logs).toEqual(['machine 9: critical memory version 1 upgraded to 2']);
      const m = machine({ machineId: 9, timing: FAST, memory: new FileMemoryStore(dir, 9) });
      expect(m.recall().memoryId).toBe(current.memoryId);
      expect(m.unacknowledgedGames).toHaveLength(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

function fakeGame(gameId = 'x-1'): GameCycle {
  return {
    gameId,
    betCents: 20,
    winCents: 0,
    symbols: [['CHERRY']],
    lineWins: [],
    scatterCount: 0,
    scatterWinCents: 0,
    creditsBeforeCents: 1_000,
    creditsAfterCents: 980,
    freeSpin: false,
    freeSpinsAwarded: 0,
    freeSpinsLeft: 0,
    jackpotHit: false,
    startedAtMs: 1,
    endedAtMs: 2,
  };
}
