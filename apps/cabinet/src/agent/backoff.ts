/** Reconnect delays: exponential from INITIAL to MAX with ±20% jitter so cabinets do not stampede. */
const RECONNECT_INITIAL_MS = 250;
const RECONNECT_MAX_MS = 5000;

export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_INITIAL_MS * 2 ** attempt);
  return Math.round(base * (0.8 + 0.4 * random()));
}
