/**
 * The one backoff of the product: a delay that doubles from a first one up to a cap, optionally
 * spread ±`jitter` so that a restarted server is not met by every client at the same instant. Used
 * by every reconnect and restart (browser sockets and video, the cabinet's agent channel, its
 * encoders, the media process, `npm start`'s supervision), each with its own numbers.
 *
 * Pure, with no Node import: the browser bundle imports it as `@reel/process/backoff`. The retry
 * libraries (p-retry, exponential-backoff) wrap a call that is retried in a loop; here the retry is
 * driven by events (a socket's close, a child's exit), so all that is shared is the delay.
 */
export interface BackoffPolicy {
  /** Delay before the first retry. */
  initialMs: number;
  /** The delay never grows past this. */
  maxMs: number;
  /** Fraction of the delay the jitter may add or take away (0, the default, for none). */
  jitter?: number;
}

/** The delay before retry number `attempt` (0 for the first retry). */
export function backoffDelayMs(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxMs, policy.initialMs * 2 ** attempt);
  const jitter = policy.jitter ?? 0;
  return Math.round(base * (1 - jitter + 2 * jitter * random()));
}

/** Counts the retries of one connection or child: `next()` for the following delay, `reset()` once it is back. */
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
