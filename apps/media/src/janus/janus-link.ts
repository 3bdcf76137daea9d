/**
 * A Janus viewer's link quality, for the automatic bands (the server's band control). Janus tells
 * its API user about loss only through `slowlink` events: at most one a second per direction, when
 * the browser NACKed more than `slowlink_threshold` of the packets Janus sent it in that second,
 * carrying that count. The band stepper wants a fraction, so the count is taken against the top
 * band's packet rate (NOMINAL_VIDEO_PACKETS_PER_S); a lower band's same count is a larger share, so
 * from there the stepper steps down a little later than with werift's exact receiver reports.
 */
/** ~1.2 Mbit/s of ~1,200-byte packets: the top band (DEFAULT_QUALITY_BANDS). */
export const NOMINAL_VIDEO_PACKETS_PER_S = 125;
/** Lost packets per second that make Janus send `slowlink` (janus.jcfg `slowlink_threshold`). */
export const SLOWLINK_THRESHOLD = 4;
/** A `slowlink` counts for this long; Janus sends the next one a second later if the loss goes on. */
const SLOWLINK_HOLD_MS = 1_500;

export class JanusLink {
  private last: { lost: number; atMs: number } | null = null;

  /** A `slowlink` event of the viewer's video (`lost`: packets lost in the last second). */
  slowLink(lost: number | undefined, nowMs = Date.now()) {
    this.last = { lost: Math.max(lost ?? SLOWLINK_THRESHOLD, SLOWLINK_THRESHOLD), atMs: nowMs };
  }

  /** The loss fraction for the band stepper: 0 on a clean second, null before the viewer is up. */
  lossFraction(connected: boolean, nowMs = Date.now()): number | null {
    if (!connected) return null;
    if (!this.last || nowMs - this.last.atMs > SLOWLINK_HOLD_MS) return 0;
    return Math.min(1, this.last.lost / NOMINAL_VIDEO_PACKETS_PER_S);
  }
}
