import { describe, expect, it } from 'vitest';
import { FramePump, shouldSkipFrame, type FrameSink, type FrameSource } from './frame-pump.js';
import { buildFfmpegArgs } from './encoder.js';
import { DEFAULT_BANDS } from './bands.js';

const FRAME = 64 * 36 * 4;

class FakeSink implements FrameSink {
  readonly frameBytes = FRAME;
  videoBacklogBytes = 0;
  written: Buffer[] = [];
  writeVideo(frame: Buffer): void {
    this.written.push(frame);
    // Like a pipe nobody reads: everything written stays queued.
    this.videoBacklogBytes += frame.length;
  }
  drain(): void {
    this.videoBacklogBytes = 0;
  }
}

class FakeSource implements FrameSource {
  renders = 0;
  changed = true;
  readonly canvas = Buffer.alloc(FRAME);
  render(): boolean {
    this.renders++;
    this.canvas.fill(this.renders & 0xff);
    return this.changed;
  }
  pixels(): Buffer {
    return this.canvas;
  }
}

describe('frame pump', () => {
  it('skips a frame while more than one frame is still queued', () => {
    expect(shouldSkipFrame(0, FRAME)).toBe(false);
    expect(shouldSkipFrame(FRAME, FRAME)).toBe(false);
    expect(shouldSkipFrame(FRAME + 1, FRAME)).toBe(true);
  });

  it('stops rendering and writing when the encoder falls behind, and resumes when it catches up', () => {
    const sink = new FakeSink();
    const source = new FakeSource();
    const pump = new FramePump(source, sink);
    expect(pump.pumpOnce()).toBe('written');
    expect(pump.pumpOnce()).toBe('written'); // one frame queued is allowed
    for (let i = 0; i < 10; i++) expect(pump.pumpOnce()).toBe('skipped');
    expect(source.renders).toBe(2);
    expect(sink.written).toHaveLength(2);
    expect(pump.framesSkipped).toBe(10);
    sink.drain();
    expect(pump.pumpOnce()).toBe('written');
    expect(source.renders).toBe(3);
  });

  it('copies the live canvas so a queued frame cannot change, and repeats unchanged frames without copying', () => {
    const sink = new FakeSink();
    const source = new FakeSource();
    const pump = new FramePump(source, sink);
    pump.pumpOnce();
    const first = sink.written[0]!;
    const firstByte = first[0];
    sink.drain();
    source.changed = false;
    expect(pump.pumpOnce()).toBe('repeated');
    expect(sink.written[1]).toBe(first);
    expect(first[0]).toBe(firstByte);
    source.changed = true;
    sink.drain();
    pump.pumpOnce();
    expect(sink.written[2]).not.toBe(first);
    expect(first[0]).toBe(firstByte);
  });
});

describe('encoder arguments', () => {
  it('uses the low-latency VP8 settings, a 1 s keyframe interval, and the target SSRCs', () => {
    const args = buildFfmpegArgs({
      band: DEFAULT_BANDS[1]!,
      target: {
        host: '127.0.0.1',
        videoPort: 5000,
        audioPort: 5002,
        videoSsrc: 11,
        audioSsrc: 22,
        videoPayloadType: 96,
        audioPayloadType: 111,
        bandId: 'low',
      },
    }).join(' ');
    for (const s of [
      '-deadline realtime',
      '-cpu-used 8',
      '-lag-in-frames 0',
      '-error-resilient 1',
      '-auto-alt-ref 0',
      '-threads 1',
      '-g 30',
      '-b:v 400k',
      '-s 426x240',
      '-ssrc 11',
      '-ssrc 22',
      'rtp://127.0.0.1:5000?pkt_size=1200',
      'rtp://127.0.0.1:5002?pkt_size=1200',
      '-c:a libopus',
    ])
      expect(args).toContain(s);
  });
  it('reads a v4l2 camera instead of the pipe when configured', () => {
    const args = buildFfmpegArgs({
      band: DEFAULT_BANDS[0]!,
      source: { kind: 'camera', device: '/dev/video2' },
      target: {
        host: '127.0.0.1',
        videoPort: 1,
        audioPort: 2,
        videoSsrc: 1,
        audioSsrc: 2,
        videoPayloadType: 96,
        audioPayloadType: 111,
        bandId: 'high',
      },
    });
    expect(args.join(' ')).toContain('-f v4l2');
    expect(args).toContain('/dev/video2');
    expect(args).not.toContain('pipe:0');
  });
});
