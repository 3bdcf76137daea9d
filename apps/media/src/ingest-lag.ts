/**
 * Bounds how far behind the live stream the forwarder may run. On a heavily loaded machine the
 * single-threaded forwarder can fall behind its ingest socket, and the 4 MB receive buffer (sized
 * for keyframe bursts) then lets a backlog of 0.4–0.7 s stand for good: the forwarder keeps up with
 * the arrival rate but never catches up (docs/video.md, "werift's standing lag"). Forwarding fewer
 * packets is what lets it catch up (the UDP send into each viewer's connection is the expensive
 * part), so a stream that stays late is dropped until a point where the picture can start again.
 *
 * Lateness is measured against the encoder's own clock: the cabinet's ffmpeg stamps every video
 * frame with the wall clock when it reads it (`-use_wallclock_as_timestamps 1` with passthrough
 * frame timing, apps/cabinet/src/media/encoder.ts), so arrival time minus RTP time is constant up
 * to encoding and queueing. The constant is unknown (ffmpeg starts at a random timestamp), hence
 * the lag is that offset above the smallest offset of the last few seconds. Audio is stamped by
 * sample count instead, which is why it only follows the video's verdict (keepsAlongside).
 */

/**
 * Above this the picture is plainly behind the game (spin result, button feedback), while a
 * forwarder that keeps up stays well below it: render → receive p95 under 30 ms on an idle machine,
 * scheduler stalls of tens of milliseconds under load. The standing backlogs seen were 0.4–0.7 s.
 */
const LAG_LIMIT_MS = 250;
/**
 * A stall the forwarder recovers from by itself (descheduled for a while, then draining the queue
 * within milliseconds; or a keyframe burst of ~100 packets) must not cost a skip, whose wait for
 * the next keyframe (30 frames apart: a second, more when a loaded encoder drops its frame rate)
 * freezes the picture: only a lag that lasts this long counts.
 */
const LATE_HOLD_MS = 200;
/**
 * How far back the smallest offset is taken from: long enough that a backlog building up over
 * several seconds still stands out against it, short enough to follow a shift in the source.
 */
const BASELINE_WINDOW_MS = 10_000;
/**
 * Dropping drains the forwarder's own backlog within milliseconds, and a keyframe comes every 30
 * frames; still late and never drained after this long, the skip is given up (the baseline starts
 * over) rather than freezing the picture on.
 */
const MAX_SKIP_MS = 2500;
/**
 * Only the forwarder's own backlog drains by dropping. Lag that arises before the packets reach us
 * (an encoder starved of CPU stamps frames when it reads them and encodes them later) does not,
 * and a skip for it only freezes the picture: on a loaded 2-core machine that cost up to 5 s of
 * frozen picture per skip. While packets wait in our socket the event loop never waits for input;
 * once it has waited this long (ms, in total), the socket had run dry: no backlog of ours then.
 */
const LOOP_WAIT_MS = 10;

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

interface LagGateOptions {
  /** RTP clock rate of the stream (90 kHz video, 48 kHz Opus). */
  clockRate: number;
  limitMs?: number;
  holdMs?: number;
  windowMs?: number;
  maxSkipMs?: number;
}

/** `skip`: this packet is dropped and a skip starts with it; `resume`: this packet is sent and ends a skip (`lastSkip` tells how it went). */
export type LagVerdict = 'send' | 'drop' | 'skip' | 'resume';

interface SkipReport {
  /** Lag when the skip started, ms. */
  lagMs: number;
  durationMs: number;
  dropped: number;
  /** The lag did not drain within the longest skip: the baseline started over (see MAX_SKIP_MS). */
  gaveUp: boolean;
}

interface Skip extends SkipReport {
  startedAtMs: number;
  triesFromMs: number;
  loopIdleAtStartMs: number;
}

/**
 * Decides per packet whether it goes out. Once the lag has stayed above the limit for the hold
 * time while the forwarder never ran out of input, packets are dropped from the next frame start
 * on, and forwarding resumes at the first resume point (a VP8 keyframe start) after the backlog
 * has drained, or that is on time again. The caller passes arrival times and the event loop's
 * idle time, so the class is pure and testable with a fake clock.
 */
export class IngestLagGate {
  readonly meter: LagMeter;
  private readonly limitMs: number;
  private readonly holdMs: number;
  private readonly maxSkipMs: number;
  private lastTs: number | null = null;
  private lateSinceMs: number | null = null;
  private loopIdleAtLateMs = 0;
  private skip: Skip | null = null;
  lastSkip: SkipReport | null = null;
  skips = 0;
  /** Hold periods the stream was late without a backlog of ours (no skip). */
  lateUpstream = 0;
  dropped = 0;

  constructor(opts: LagGateOptions) {
    this.meter = new LagMeter(opts.clockRate, opts.windowMs);
    this.limitMs = opts.limitMs ?? LAG_LIMIT_MS;
    this.holdMs = opts.holdMs ?? LATE_HOLD_MS;
    this.maxSkipMs = opts.maxSkipMs ?? MAX_SKIP_MS;
  }

  /**
   * `ts`: the packet's RTP timestamp; `atMs`: when it reached us; `resumePoint`: whether the stream
   * can start again at this packet; `loopIdleMs`: the event loop's total time spent waiting for
   * input so far (`performance.eventLoopUtilization().idle`).
   */
  admit(ts: number, atMs: number, resumePoint: boolean, loopIdleMs: number): LagVerdict {
    const frameStart = ts !== this.lastTs;
    this.lastTs = ts;
    let lag = this.meter.measure(ts, atMs);
    const skip = this.skip;
    if (skip) {
      if (atMs - skip.triesFromMs > this.maxSkipMs) {
        this.meter.restart();
        lag = this.meter.measure(ts, atMs);
        skip.triesFromMs = atMs;
        skip.gaveUp = true;
      }
      // What is still late after the backlog drained came late from upstream: no reason to wait on.
      // Half the limit otherwise: resuming just under it would start the next skip soon after.
      const drained = loopIdleMs - skip.loopIdleAtStartMs >= LOOP_WAIT_MS;
      if (resumePoint && (drained || lag < this.limitMs / 2)) {
        const { startedAtMs, triesFromMs: _, loopIdleAtStartMs: __, ...report } = skip;
        this.lastSkip = { ...report, durationMs: atMs - startedAtMs };
        this.skip = null;
        return 'resume';
      }
      skip.dropped++;
      this.dropped++;
      return 'drop';
    }
    if (lag <= this.limitMs) this.lateSinceMs = null;
    else if (this.lateSinceMs === null) {
      this.lateSinceMs = atMs;
      this.loopIdleAtLateMs = loopIdleMs;
    }
    // Only at a frame start: the frame under way goes out whole, so the browser sees no torn frame.
    if (this.lateSinceMs === null || atMs - this.lateSinceMs < this.holdMs || !frameStart) return 'send';
    if (loopIdleMs - this.loopIdleAtLateMs >= LOOP_WAIT_MS) {
      // Late, but not waiting in our socket: watch the next hold period afresh.
      this.lateUpstream++;
      this.lateSinceMs = atMs;
      this.loopIdleAtLateMs = loopIdleMs;
      return 'send';
    }
    this.lateSinceMs = null;
    this.skip = {
      startedAtMs: atMs,
      triesFromMs: atMs,
      loopIdleAtStartMs: loopIdleMs,
      lagMs: lag,
      durationMs: 0,
      dropped: 1,
      gaveUp: false,
    };
    this.skips++;
    this.dropped++;
    return 'skip';
  }

  /**
   * Whether a packet of a stream that travels with this one (the machine's audio) goes out, given
   * its own lag. While this one skips, the forwarder is draining a backlog, and that stream's late
   * packets come out of the same backlog. Its own lag alone does not decide: the cabinet feeds
   * audio by sample count and cuts samples when it falls behind, which shifts the audio clock
   * against the wall clock exactly when the machine is loaded.
   */
  keepsAlongside(lagMs: number): boolean {
    return this.skip === null || lagMs < this.limitMs / 2;
  }

  /** A new encoder run: its timestamps start afresh, so its offset has nothing to do with the old one's. */
  restartBaseline(): void {
    this.meter.restart();
    this.lastTs = null;
    this.lateSinceMs = null;
  }
}
