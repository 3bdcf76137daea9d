/** The game channel's states and reconnect timings: what the screen and the tests read. */
import { backoffDelayMs, type BackoffPolicy } from '@reel/process/backoff';

export const GameChannelStatus = {
  Idle: 'idle',
  Connecting: 'connecting',
  Joined: 'joined',
  Reconnecting: 'reconnecting',
  /** The browser is offline; nothing is retried until it is back. */
  Offline: 'offline',
  /** Back after a long outage: waiting for `resume()`. */
  Interrupted: 'interrupted',
  /** The session ended (left, closed by the server, or taken over elsewhere). */
  Closed: 'closed',
  /** The join was refused; see the `fatal` event. */
  Failed: 'failed',
} as const;
export type GameChannelStatus = (typeof GameChannelStatus)[keyof typeof GameChannelStatus];

export const RECONNECT_INITIAL_DELAY_MS = 250;
export const RECONNECT_MAX_DELAY_MS = 8_000;
/** An outage longer than this needs the player's confirmation before the session is resumed. */
export const LONG_OUTAGE_MS = 4_000;
/** How long a `stream {}` request may stay unanswered before the channel re-joins for a grant. */
export const STREAM_REQUEST_TIMEOUT_MS = 1_500;
export const RECONNECT_BACKOFF: BackoffPolicy = {
  initialMs: RECONNECT_INITIAL_DELAY_MS,
  maxMs: RECONNECT_MAX_DELAY_MS,
  // ±25 %: a restarted server is not met by every player at the same instant.
  jitter: 0.25,
};

export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  return backoffDelayMs(RECONNECT_BACKOFF, attempt, random);
}
