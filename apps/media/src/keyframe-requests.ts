/**
 * Turns the browsers' picture-loss reports (PLI) for one machine into at most one keyframe request
 * to its encoder per `minIntervalMs`. The cabinet answers a request by restarting ffmpeg (its first
 * frame is a keyframe; see apps/cabinet/src/media/machine-stream.ts), which costs every viewer of
 * the machine a short gap, so a request is also skipped when the encoder's own keyframe (one per
 * `keyframeIntervalMs`) is due within `naturalMarginMs`: waiting for it is as fast as a restart.
 */
const KEYFRAME_REQUEST_MIN_INTERVAL_MS = 1000;
const NATURAL_KEYFRAME_MARGIN_MS = 300;
const ENCODER_KEYFRAME_INTERVAL_MS = 1000;

interface KeyframeLimiterOptions {
  minIntervalMs?: number;
  naturalMarginMs?: number;
  keyframeIntervalMs?: number;
}

export type KeyframeDecision = 'request' | 'rate_limited' | 'natural_due';

export class KeyframeRequestLimiter {
  private lastRequestAtMs: number | null = null;
  private readonly minIntervalMs: number;
  private readonly naturalMarginMs: number;
  private readonly keyframeIntervalMs: number;
  requests = 0;
  suppressed = 0;

  constructor(opts: KeyframeLimiterOptions = {}) {
    this.minIntervalMs = opts.minIntervalMs ?? KEYFRAME_REQUEST_MIN_INTERVAL_MS;
    this.naturalMarginMs = opts.naturalMarginMs ?? NATURAL_KEYFRAME_MARGIN_MS;
    this.keyframeIntervalMs = opts.keyframeIntervalMs ?? ENCODER_KEYFRAME_INTERVAL_MS;
  }

  /** A viewer reported picture loss at `nowMs`; the last keyframe arrived at `lastKeyframeAtMs`. */
  onPictureLoss(nowMs: number, lastKeyframeAtMs: number | null): KeyframeDecision {
    const decision = this.decide(nowMs, lastKeyframeAtMs);
    if (decision === 'request') {
      this.lastRequestAtMs = nowMs;
      this.requests++;
    } else this.suppressed++;
    return decision;
  }

  private decide(nowMs: number, lastKeyframeAtMs: number | null): KeyframeDecision {
    if (this.lastRequestAtMs !== null && nowMs - this.lastRequestAtMs < this.minIntervalMs) return 'rate_limited';
    if (lastKeyframeAtMs !== null) {
      const sinceKeyframe = nowMs - lastKeyframeAtMs;
      const untilNatural = this.keyframeIntervalMs - sinceKeyframe;
      // A keyframe is due soon (or just late): the encoder's own beats a restart.
      if (untilNatural >= -this.naturalMarginMs && untilNatural <= this.naturalMarginMs) return 'natural_due';
    }
    return 'request';
  }
}
