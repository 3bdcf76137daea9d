/**
 * MIN_SPIN_INTERVAL_MS (a jurisdiction rule): a spin may start no sooner than this after the last
 * spin of the session started. Memory only: after a restart the first spin is never too soon.
 */
import { Code } from '@reel/protocol';
import { AppError } from '../../lib/errors.js';

export class SpinPace {
  private readonly lastStartMs = new Map<string, number>();

  /** Refuses a spin inside the interval (40921 with the wait left); otherwise records its start. */
  start(sessionId: string, nowMs: number, minIntervalMs: number) {
    const last = this.lastStartMs.get(sessionId);
    if (last !== undefined && minIntervalMs > 0 && nowMs - last < minIntervalMs) {
      throw new AppError(Code.SpinTooSoon, 429, { wait_ms: minIntervalMs - (nowMs - last) });
    }
    this.lastStartMs.set(sessionId, nowMs);
  }

  /** The session closed: nothing of it is kept. */
  forget(sessionId: string) {
    this.lastStartMs.delete(sessionId);
  }
}
