/**
 * How the player's video link is doing, from what the browser itself measures (getStats) and from
 * the frames it presents: the latency indicator and the play rules read this, so what the player
 * sees is the real path (round trip, jitter, loss), not a figure from the server.
 */

/** No new frame for this long: the picture is frozen and play waits (the outcome must be seen). */
const FROZEN_AFTER_MS = 1000;
/** Beyond any of these the connection is shown as degraded. */
const DEGRADED_LOSS_PERCENT = 3;
const DEGRADED_JITTER_MS = 50;
const DEGRADED_RTT_MS = 300;

interface LinkSample {
  /** Round trip of the selected candidate pair, ms. */
  rttMs: number | null;
  /** Inter-arrival jitter of the video stream (RFC 3550, as the browser computes it), ms. */
  jitterMs: number | null;
  /** Packets lost in the last interval, percent of those expected. */
  lossPercent: number | null;
}

export function isFrozen(lastFrameAtMs: number | null, nowMs: number): boolean {
  return lastFrameAtMs !== null && nowMs - lastFrameAtMs > FROZEN_AFTER_MS;
}

export function isDegraded(sample: LinkSample, frozen: boolean): boolean {
  return (
    frozen ||
    (sample.lossPercent ?? 0) > DEGRADED_LOSS_PERCENT ||
    (sample.jitterMs ?? 0) > DEGRADED_JITTER_MS ||
    (sample.rttMs ?? 0) > DEGRADED_RTT_MS
  );
}

/** Loss over an interval from two cumulative (received, lost) readings. */
export function intervalLossPercent(
  previous: { received: number; lost: number },
  current: { received: number; lost: number },
): number | null {
  const received = current.received - previous.received;
  const lost = Math.max(0, current.lost - previous.lost);
  if (received + lost <= 0) return null;
  return (lost / (received + lost)) * 100;
}
