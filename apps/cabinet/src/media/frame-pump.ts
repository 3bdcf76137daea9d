/**
 * Paces frames at 30 fps against the wall clock and feeds the encoder. Node buffers pipe writes
 * without limit, so when ffmpeg falls behind, queued frames would turn into seconds of latency:
 * a frame is skipped (not rendered, not written) while more than one frame is still unread.
 */

export interface FrameSink {
  readonly frameBytes: number;
  readonly videoBacklogBytes: number;
  writeVideo(frame: Buffer): void;
}

export interface FrameSource {
  /** Paints the frame for `nowMs`; false when nothing changed since the last one. */
  render(nowMs: number): boolean;
  pixels(): Buffer;
}

/** The frame-drop rule, on its own so it can be tested. */
export const shouldSkipFrame = (backlogBytes: number, frameBytes: number): boolean =>
  backlogBytes > frameBytes;

const RING = 4;

export class FramePump {
  framesWritten = 0;
  framesSkipped = 0;
  framesRepeated = 0;
  private timer: NodeJS.Timeout | null = null;
  private nextAtMs = 0;
  private readonly ring: Buffer[];
  private ringIndex = 0;
  private last: Buffer | null = null;
  /** Listener for each frame handed over (benchmarks read the render time). */
  onFrame: ((renderedAtMs: number) => void) | null = null;

  constructor(
    private readonly source: FrameSource,
    private readonly sink: FrameSink,
    private readonly fps = 30,
  ) {
    this.ring = Array.from({ length: RING }, () => Buffer.allocUnsafe(sink.frameBytes));
  }

  start(): void {
    if (this.timer) return;
    this.nextAtMs = performance.now();
    this.tick();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Renders a frame now instead of at the next tick (a spin started: the first moving frame
   * should not wait up to a frame interval), then continues the 30 fps rhythm from here.
   */
  kick(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.nextAtMs = performance.now();
    this.tick();
  }

  /** One frame slot: render and write, or skip when the encoder is behind. */
  pumpOnce(nowMs = Date.now()): 'written' | 'repeated' | 'skipped' {
    if (shouldSkipFrame(this.sink.videoBacklogBytes, this.sink.frameBytes)) {
      this.framesSkipped++;
      return 'skipped';
    }
    const changed = this.source.render(nowMs);
    if (!changed && this.last) {
      // Same picture: the buffer already holds it and is never written to again while queued.
      this.sink.writeVideo(this.last);
      this.framesRepeated++;
      this.framesWritten++;
      return 'repeated';
    }
    // The canvas memory is live; copy so a queued write cannot see the next frame's drawing.
    const buf = this.ring[this.ringIndex]!;
    this.ringIndex = (this.ringIndex + 1) % RING;
    this.source.pixels().copy(buf);
    this.last = buf;
    this.sink.writeVideo(buf);
    this.framesWritten++;
    this.onFrame?.(nowMs);
    return 'written';
  }

  private tick = (): void => {
    this.pumpOnce();
    const intervalMs = 1000 / this.fps;
    this.nextAtMs += intervalMs;
    const now = performance.now();
    // After a long stall, resynchronise instead of firing a burst of catch-up frames.
    if (this.nextAtMs < now - intervalMs) this.nextAtMs = now;
    this.timer = setTimeout(this.tick, Math.max(0, this.nextAtMs - now));
  };
}
