/**
 * The faults: kill -9 of the server, the cabinets, the media process, PostgreSQL or the whole
 * process group (then started again), at random moments, each kind at least `killsPerKind` times
 * (the loop runs past the run's length until then); most kills of the server, PostgreSQL and the
 * group are timed to a hand pay approval or a cash in under a deposit limit (moments.ts). After
 * each kill it waits until the product answers, play is back and video is back (recovery.ts), and
 * times it: not back within RECOVERY_LIMIT_MS is a violation.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { HistoryOp } from './history.js';
import type { ChaosPlayer } from './player.js';
import type { Product } from './product.js';
import type { KillMoments, Moment } from './moments.js';
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
  /** Moments some kills of the server, PostgreSQL and the group are timed to (moments.ts). */
  moments: KillMoments;
  /** Called once after every kind of kill happened (--damage-memory). */
  afterFirstRound?: () => Promise<void>;
}

interface FaultResult {
  kills: Map<KillTarget, number>;
  recoveriesMs: number[];
  violations: string[];
  /** Kills that landed on a marked moment, by moment. */
  timed: Map<Moment, number>;
}

/** The kinds whose kill can land inside a money transaction of a request. */
const TIMED_TARGETS: readonly KillTarget[] = ['server', 'postgres', 'everything'];
const MOMENTS: readonly Moment[] = ['approval', 'limitedCashIn'];

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
  const timed = new Map<Moment, number>(MOMENTS.map((m) => [m, 0]));
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
    // Most of these kills wait for an approval or a limited cash in (half each) to be sent, then
    // land 0–30 ms later: before, inside or just after its transaction. None within 30 s: untimed.
    // A short run (npm test's) waits only within its length, to keep its time; a long one also
    // for the kills owed past it.
    const wanted = MOMENTS[o.rng() < 0.5 ? 0 : 1]!;
    const waitMs = o.seconds >= 300 ? 30_000 : Math.min(30_000, deadline - Date.now());
    const moment = TIMED_TARGETS.includes(target) && o.rng() < 0.7 && waitMs > 0 ? await o.moments.next([wanted], waitMs) : null;
    if (moment) await sleep(o.rng() * 30);
    if (!o.product.kill(target)) continue;
    if (moment) timed.set(moment, timed.get(moment)! + 1);
    kills.set(target, kills.get(target)! + 1);
    const killedAt = Date.now();
    const killedAtText = at();
    console.log(`chaos: kill -9 ${target} at ${killedAtText}${moment ? ` (timed to ${moment === 'approval' ? 'a hand pay approval' : 'a cash in under a deposit limit'})` : ''}`);
    if (target === 'everything') o.product.start();
    await sleep(500);
    const limit = killedAt + RECOVERY_LIMIT_MS;
    await o.product.waitUp(RECOVERY_LIMIT_MS).catch(() => {});
    const [play, video] = await Promise.all([playBack(o.history, killedAt, limit), videoBack(o.videoPlayer, o.product.baseUrl, limit)]);
    if (play === null || video === null) {
      violations.push(`after the kill of ${target} at ${killedAtText}: ${[play === null && 'play', video === null && 'video'].filter(Boolean).join(' and ')} not back within ${RECOVERY_LIMIT_MS / 1000} s`);
      continue;
    }
    const ms = Math.max(play, video) - killedAt;
    recoveriesMs.push(ms);
    console.log(`chaos:   back after ${(ms / 1000).toFixed(1)} s (play ${((play - killedAt) / 1000).toFixed(1)} s, video ${((video - killedAt) / 1000).toFixed(1)} s)`);
  }
  return { kills, recoveriesMs, violations, timed };
}
