/**
 * One play window of the floor bench: M players enter (sign-in, lobby, join, cash in), W lobby
 * watchers listen, everyone spins for `seconds`, then they cash out. Measures spins per second,
 * the spin round trips, every part's CPU over the window and the servers' memory per session.
 * `during` runs inside the window (the failover phase kills a server there).
 */
import fs from 'node:fs';
import type net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_TIMING } from '../../../apps/cabinet/src/game/machine-types.js';
import { drainSocket } from '../../../apps/server/bench/cluster-clients.js';
import { pct } from '../percentile.js';
import { startCpuSampler, type CpuGroups } from '../proc-cpu.js';
import { FloorPlayer, SPIN_EVERY_MS } from './floor-player.js';
import type { FloorSeat } from './floor-seed.js';

/** The cabinet's own time for a game: the last of the 5 reels lands this long after the spin starts. */
export const REEL_TIME_MS = DEFAULT_TIMING.spinDurationMs + 4 * DEFAULT_TIMING.reelStaggerMs;
const CASH_IN_CENTS = 5_000;
// Sign-ins hash passwords (argon2id): a few at a time, so the server keeps answering its health check.
const ENTER_AT_ONCE = 5;
/** How long past the reels' time the window waits for its last spins' answers before the players leave. */
const DRAIN_EXTRA_MS = 10_000;

export interface PlayResult {
  players: FloorPlayer[];
  /** The window, by the generator's clock. */
  startedAt: number;
  endedAt: number;
  windowS: number;
  spinsPerS: number;
  /** Spin sent → result received, minus the reels' REEL_TIME_MS: what the servers, bus, database and cabinet add. */
  overhead: { n: number; p50: number; p99: number };
  /** Spin sent → the machine view saying the game started. */
  accepted: { n: number; p50: number; p99: number };
  spinsSent: number;
  /** Sent, neither answered nor refused: lost on the way or timed out. */
  spinsWithoutResult: number;
  /**
   * Of those, the ones whose game never started on the machine (its view never left idle): a spin
   * the cabinet refused, which the player is not told (e.g. `unacknowledged_games` right after a
   * failover, while an earlier game waits for the new owner to store it), or one lost before it.
   */
  spinsNotStarted: number;
  /** Refused by the server (the refusals' codes are in `errors`). */
  spinsRefused: number;
  cpu: Record<string, number>;
  memoryPerSessionKb: number;
  errors: Map<number, number>;
}

const rssKb = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
};
const stats = (values: number[]) => ({ n: values.length, p50: pct(values, 50), p99: pct(values, 99) });

export async function playWindow(opts: {
  baseUrl: string;
  seats: FloorSeat[];
  seconds: number;
  watchers: number;
  watcherToken: () => Promise<string>;
  cpu: CpuGroups;
  serverPids: () => number[];
  during?: (startedAt: number) => Promise<void>;
}): Promise<PlayResult> {
  const { hostname, port } = new URL(opts.baseUrl);
  const token = await opts.watcherToken();
  const watchers: net.Socket[] = [];
  for (let i = 0; i < opts.watchers; i += ENTER_AT_ONCE)
    watchers.push(...(await Promise.all(Array.from({ length: Math.min(ENTER_AT_ONCE, opts.watchers - i) }, () => drainSocket(hostname, Number(port), `/ws/notifications?token=${token}`)))));
  const rssBefore = opts.serverPids().reduce((sum, pid) => sum + rssKb(pid), 0);
  const players = opts.seats.map((seat) => new FloorPlayer(opts.baseUrl, seat));
  try {
    for (let i = 0; i < players.length; i += ENTER_AT_ONCE) await Promise.all(players.slice(i, i + ENTER_AT_ONCE).map((p) => p.enter(CASH_IN_CENTS)));
    const rssAfter = opts.serverPids().reduce((sum, pid) => sum + rssKb(pid), 0);
    // Spread over the spin interval, as players who sat down at different moments.
    const playing = players.map((p, i) => p.play((i * SPIN_EVERY_MS) / players.length));
    // The window starts once every player has made a first spin.
    await sleep(SPIN_EVERY_MS);
    const sampler = startCpuSampler(opts.cpu);
    const startedAt = Date.now();
    await Promise.all([sleep(opts.seconds * 1000), opts.during?.(startedAt)]);
    const cpu = sampler.stop();
    const endedAt = Date.now();
    // The window's spins are answered under the window's load: the players keep their pace until
    // the last spin sent in it is answered, and only then cash out. Leaving at once put fifty cash
    // outs on the spins of the window's last second, and those were every spin over 100 ms in two
    // runs at M=50 (docs/scale.md, "The one-server tail").
    const unanswered = () => players.some((p) => p.spins.some((s) => s.sentAt < endedAt && s.resultAt === undefined && s.refusedCode === undefined));
    for (const deadline = Date.now() + REEL_TIME_MS + DRAIN_EXTRA_MS; unanswered() && Date.now() < deadline; ) await sleep(50);
    await Promise.all(players.map((p) => p.leave()));
    await Promise.all(playing);
    const inWindow = players.flatMap((p) => p.spins).filter((s) => s.sentAt >= startedAt && s.sentAt < endedAt);
    const done = inWindow.filter((s) => s.resultAt !== undefined);
    const errors = new Map<number, number>();
    for (const p of players) for (const [code, n] of p.errors) errors.set(code, (errors.get(code) ?? 0) + n);
    return {
      players,
      startedAt,
      endedAt,
      windowS: (endedAt - startedAt) / 1000,
      spinsPerS: done.length / ((endedAt - startedAt) / 1000),
      overhead: stats(done.filter((s) => !s.resent).map((s) => s.resultAt! - s.sentAt - REEL_TIME_MS)),
      accepted: stats(inWindow.filter((s) => s.acceptedAt !== undefined && !s.resent).map((s) => s.acceptedAt! - s.sentAt)),
      spinsSent: inWindow.length,
      spinsWithoutResult: inWindow.filter((s) => s.resultAt === undefined && s.refusedCode === undefined).length,
      spinsNotStarted: inWindow.filter((s) => s.resultAt === undefined && s.refusedCode === undefined && s.acceptedAt === undefined).length,
      spinsRefused: inWindow.filter((s) => s.refusedCode !== undefined).length,
      cpu,
      memoryPerSessionKb: (rssAfter - rssBefore) / Math.max(1, players.length),
      errors,
    };
  } catch (error) {
    for (const p of players) p.abort();
    throw error;
  } finally {
    for (const w of watchers) w.destroy();
  }
}
