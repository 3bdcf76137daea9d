/**
 * How late a machine's video reaches the werift forwarder, for its stats (`videoLagMs`). On a
 * heavily loaded machine the single-threaded forwarder can fall behind its ingest socket and a
 * backlog of 0.4–0.7 s can stand (docs/video.md, "werift's standing lag"); this is the figure that
 * shows it. (A bound that dropped late video up to a keyframe was built on it, A/B-tested at load
 * ~7.5 and ~9.5 and removed: its skips froze the picture longer than the lag it cut.)
 *
 * Lateness is measured against the encoder's own clock: the cabinet's ffmpeg stamps every video
 * frame with the wall clock when it reads it (`-use_wallclock_as_timestamps 1` with passthrough
 * frame timing, apps/cabinet/src/media/encoder.ts), so arrival time minus RTP time is constant up
 * to encoding and queueing. The constant is unknown (ffmpeg starts at a random timestamp), hence
 * the lag is that offset above the smallest offset of the last few seconds.
 */

/**
 * How far back the smallest offset is taken from: long enough that a backlog building up over
 * several seconds still stands out against it, short enough to follow a shift in the source.
 */
const BASELINE_WINDOW_MS = 10_000;

/**
 * How late a stream's packets reach us: arrival time minus RTP time, above the smallest such
 * offset over the last `windowMs` of arrivals.
 */
export class LagMeter {
  private readonly bucketMs: number;
  private lastTs: number | null = null;
  /** The RTP timestamp unwrapped past 2^32 (it wraps every 13 h at 90 kHz, from a random start). */
  private extendedTs = 0;
  /** Smallest offset per bucket of arrival time, oldest first. */
  private buckets: { startMs: number; min: number }[] = [];
  /** Lag of the last packet measured, ms. */
  lagMs: number | null = null;

  constructor(
    private readonly clockRate: number,
    private readonly windowMs = BASELINE_WINDOW_MS,
  ) {
    // Ten buckets: the window slides in tenths, and the smallest offset is a scan of ten numbers.
    this.bucketMs = windowMs / 10;
  }

  /** Records a packet with RTP timestamp `ts` that arrived at `atMs`; returns its lag in ms. */
  measure(ts: number, atMs: number): number {
    // The signed 32-bit difference carries the timestamp across a wrap (and a reordered packet back).
    this.extendedTs = this.lastTs === null ? ts : this.extendedTs + ((ts - this.lastTs) | 0);
    this.lastTs = ts;
    const offset = atMs - (this.extendedTs * 1000) / this.clockRate;
    const newest = this.buckets[this.buckets.length - 1];
    if (newest && atMs - newest.startMs < this.bucketMs) newest.min = Math.min(newest.min, offset);
    else this.buckets.push({ startMs: atMs, min: offset });
    while (atMs - this.buckets[0]!.startMs > this.windowMs) this.buckets.shift();
    let base = offset;
    for (const b of this.buckets) base = Math.min(base, b.min);
    this.lagMs = offset - base;
    return this.lagMs;
  }

  /** Forgets the baseline: the next packet measures 0. */
  restart(): void {
    this.lastTs = null;
    this.buckets = [];
  }
}
