/** Backoff for re-establishing video: quick first retries, capped, with jitter. */
export const VIDEO_RECONNECT_INITIAL_MS = 300;
export const VIDEO_RECONNECT_MAX_MS = 8000;
/** How long `disconnected` may last before we rebuild the connection (ICE often recovers alone). */
export const DISCONNECTED_GRACE_MS = 2500;

export function videoReconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(VIDEO_RECONNECT_MAX_MS, VIDEO_RECONNECT_INITIAL_MS * 2 ** attempt);
  return Math.round(base * (0.75 + 0.5 * random()));
}
