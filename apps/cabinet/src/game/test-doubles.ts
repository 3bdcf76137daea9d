/**
 * Test doubles for a cabinet's game and critical memory, shared by the cabinet's tests and the
 * server's tests that run a real simulated cabinet: a memory that a test can "kill -9" at any
 * commit, a scripted random source and a search for reel stops with a given outcome.
 */
import { REEL_STRIPS, type GameCycle } from '@reel/protocol';
import type { MemoryImage, MemoryStore } from './critical-memory.js';
import { evaluateStops } from './engine.js';
import type { SlotMachine } from './machine.js';
import type { Uint32Source } from './rng.js';

/**
 * A memory whose commits become durable only when the test says so, and a "kill -9" that throws
 * away whatever was not durable yet: what a machine may rely on is exactly what it waited for.
 * `dieAfter` kills the process right after a commit reached the disk: that commit is durable, but
 * the machine never hears back (nothing after it runs, as after a kill -9 at that instant).
 */
export class CrashableStore implements MemoryStore {
  durable: string | null = null;
  private pending: { data: string; resolve: () => void }[] = [];
  autoFlush = true;
  /** Every durable image, for the "killed at any moment" sweep. */
  history: string[] = [];
  /** Returns true for the image after whose commit the process dies. */
  dieAfter: ((image: MemoryImage) => boolean) | null = null;
  dead = false;

  load(): MemoryImage | null {
    return this.durable ? (JSON.parse(this.durable) as MemoryImage) : null;
  }
  commit(image: MemoryImage): Promise<void> {
    if (this.dead) return new Promise<void>(() => {});
    const data = JSON.stringify(image);
    return new Promise((resolve) => {
      this.pending.push({ data, resolve: this.dieAfter?.(image) ? () => this.die() : resolve });
      if (this.autoFlush) queueMicrotask(() => this.flush());
    });
  }
  /** Images handed to the store and not durable yet. */
  get waiting(): MemoryImage[] {
    return this.pending.map((p) => JSON.parse(p.data) as MemoryImage);
  }
  flush() {
    for (const p of this.pending.splice(0)) {
      this.durable = p.data;
      this.history.push(p.data);
      p.resolve();
    }
  }
  /** kill -9: commits not yet durable are lost, and their callers never hear back. */
  crash() {
    this.pending = [];
  }
  /** The process is gone: no commit is written or answered any more (until `revive`). */
  private die() {
    this.dead = true;
    this.dieAfter = null;
  }
  /** The next process starts on the same memory. */
  revive() {
    this.crash();
    this.dead = false;
  }
}

/** Plays back the given 32-bit values, then 3s. */
export function scripted(values: number[]): Uint32Source {
  const queue = [...values];
  return { nextUint32: () => queue.shift() ?? 3 };
}

/** Reel stops whose outcome satisfies `pred` (a deterministic search). */
export function findStops(pred: (ev: ReturnType<typeof evaluateStops>) => boolean): number[] {
  for (let k = 0; k < 200_000; k++) {
    const stops = REEL_STRIPS.map((s, r) => Math.floor((k * (r * 7 + 3) + r * 11 + k / (r + 1)) % s.length));
    if (pred(evaluateStops(stops))) return stops;
  }
  throw new Error('no such stops');
}

/**
 * The server's part for a machine tested without one: each game it reports is acknowledged as
 * stored at once, so its next paid game may start (machine-play.ts `spinRefusal`).
 */
export function acknowledgingEveryGame<M extends Pick<SlotMachine, 'on' | 'acknowledge'>>(machine: M): M {
  machine.on('cycle', (cycle: GameCycle) => machine.acknowledge(cycle.gameId));
  return machine;
}
