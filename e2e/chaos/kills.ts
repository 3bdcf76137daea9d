/**
 * The faults: kill -9 of the server, the cabinets, the media process, PostgreSQL or the whole
 * process group (then started again), at random moments, each kind at least `killsPerKind` times
 * (the loop runs past the run's length until then). After each kill it waits until the product
 * answers, play is back and video is back (recovery.ts), and times it: not back within
 * RECOVERY_LIMIT_MS is a violation.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { HistoryOp } from './history.js';
import type { ChaosPlayer } from './player.js';
import type { Product } from './product.js';
import { playBack, videoBack } from './recovery.js';
import { KILL_TARGETS, type KillTarget } from './report.js';

const RECOVERY_LIMIT_MS = 120_000;

interface FaultOptions {
  product: Product;
  seconds: number;
  killsPerKind: number;
  rng: () => number;
  history: readonly HistoryOp[];
  /** The player on the machine that keeps its video. */
  videoPlayer: ChaosPlayer;
  /** Called once after every kind of kill happened (--damage-memory). */
  afterFirstRound?: () => Promise<void>;
}

interface FaultResult {
  kills: Map<KillTarget, number>;
  recoveriesMs: number[];
  violations: string[];
}

function nextTarget(kills: Map<KillTarget, number>, killsPerKind: number, rng: () => number): KillTarget {
  // Round after round of every kind until each has its minimum, then at random.
  const fewest = Math.min(...KILL_TARGETS.map((t) => kills.get(t)!));
  if (fewest < killsPerKind) return KILL_TARGETS.find((t) => kills.get(t) === fewest)!;
  return KILL_TARGETS[Math.floor(rng() * KILL_TARGETS.length)]!;
}

export async function runFaults(o: FaultOptions): Promise<FaultResult> {
  const kills = new Map<KillTarget, number>(KILL_TARGETS.map((t) => [t, 0]));
  const recoveriesMs: number[] = [];
  const violations: string[] = [];
  const startedAt = Date.now();
  const deadline = startedAt + o.seconds * 1000;
  const at = () => `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
  // Past this, a kind still short of its minimum stays short (the report fails the run).
  const hardStop = deadline + Math.max(300_000, o.seconds * 1000);
  let firstRoundDone = false;
  const owed = () => [...kills.values()].some((n) => n < o.killsPerKind) || (o.afterFirstRound !== undefined && !firstRoundDone);
  while (Date.now() < deadline || (owed() && Date.now() < hardStop)) {
    await sleep(2_000 + o.rng() * 6_000);
    if (!firstRoundDone && o.afterFirstRound && [...kills.values()].every((n) => n > 0)) {
      firstRoundDone = true;
      await o.afterFirstRound();
      await o.product.waitUp();
      continue;
    }
    const target = nextTarget(kills, o.killsPerKind, o.rng);
    if (!o.product.kill(target)) continue;
    kills.set(target, kills.get(target)! + 1);
    const killedAt = Date.now();
    console.log(`chaos: kill -9 ${target} at ${at()}`);
    if (target === 'everything') o.product.start();
    await sleep(500);
    const limit = killedAt + RECOVERY_LIMIT_MS;
    await o.product.waitUp(RECOVERY_LIMIT_MS).catch(() => {});
    const [play, video] = await Promise.all([playBack(o.history, killedAt, limit), videoBack(o.videoPlayer, o.product.baseUrl, limit)]);
    if (play === null || video === null) {
      violations.push(`after the kill of ${target} at ${at()}: ${[play === null && 'play', video === null && 'video'].filter(Boolean).join(' and ')} not back within ${RECOVERY_LIMIT_MS / 1000} s`);
      continue;
    }
    const ms = Math.max(play, video) - killedAt;
    recoveriesMs.push(ms);
    console.log(`chaos:   back after ${(ms / 1000).toFixed(1)} s (play ${((play - killedAt) / 1000).toFixed(1)} s, video ${((video - killedAt) / 1000).toFixed(1)} s)`);
  }
  return { kills, recoveriesMs, violations };
}
