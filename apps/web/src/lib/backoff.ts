/**
 * The one reconnect policy of the browser's long-lived connections (game channel, notification
 * socket, live video): exponential from a first delay up to a cap, spread ±25 % so a server
 * restart is not met by every player at the same instant. Each connection names its own first
 * delay and cap; the shape is shared.
 */
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

/** Fraction of the delay the jitter may add or take away. */
const JITTER = 0.25;

/** The delay before retry number `attempt` (0 for the first retry). */
export function backoffDelayMs(
  policy: BackoffPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(policy.maxMs, policy.initialMs * 2 ** attempt);
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** Counts the retries of one connection: `next()` for the following delay, `reset()` once it is back. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly random: () => number = Math.random,
  ) {}

  next(): number {
    return backoffDelayMs(this.policy, this.attempt++, this.random);
  }

  reset(): void {
    this.attempt = 0;
  }

  /** Retries since the last reset. */
  get attempts(): number {
    return this.attempt;
  }
}
