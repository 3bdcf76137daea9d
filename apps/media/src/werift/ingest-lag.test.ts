import { describe, expect, it } from 'vitest';
import { LagMeter } from './ingest-lag.js';

const FRAME_MS = 1000 / 30;
const TICKS_PER_FRAME = 3000;

/** Feeds a 30 fps stream (RTP time following the encoder's stamps from `firstTs`), each frame arriving `delayMs(frame)` after its stamp; returns the lag measured per frame. */
function run(meter: LagMeter, frames: number, delayMs: (frame: number) => number, firstTs = 1_234_567): number[] {
  const lags: number[] = [];
  for (let frame = 0; frame < frames; frame++) {
    const ts = (firstTs + frame * TICKS_PER_FRAME) % 2 ** 32;
    lags.push(meter.measure(ts, 1_000_000 + frame * FRAME_MS + delayMs(frame)));
  }
  return lags;
}

describe('ingest lag meter', () => {
  it('reads an on-time stream with jitter as at most its jitter late', () => {
    const meter = new LagMeter(90_000);
    const lags = run(meter, 300, (frame) => 5 + ((frame * 7) % 11));
    expect(Math.max(...lags)).toBeLessThan(10.001);
  });

  it('shows a backlog that builds up and stands, and forgets it once the window has passed', () => {
    const meter = new LagMeter(90_000);
    const lags = run(meter, 900, (frame) => (frame < 90 ? 5 : frame < 120 ? 5 + (frame - 90) * 16 : 485));
    expect(lags[89]).toBeLessThan(1);
    expect(lags[200]).toBeCloseTo(480, 0);
    // Ten seconds into the standing delay it is the new normal: the smallest offset has moved up.
    expect(lags[899]).toBeLessThan(1);
  });

  it('measures across the RTP timestamp wrap', () => {
    const nearWrap = 2 ** 32 - 45 * TICKS_PER_FRAME; // wraps 1.5 s in
    expect(Math.max(...run(new LagMeter(90_000), 300, () => 10, nearWrap))).toBeLessThan(1);
    const meter = new LagMeter(90_000);
    expect(meter.measure(2 ** 32 - 900, 0)).toBe(0);
    expect(meter.measure(900, 20)).toBe(0); // 20 ms of RTP time later, across the wrap
    expect(meter.measure(1800, 60)).toBe(30);
  });

  it('starts over for a new encoder run with a timestamp base of its own', () => {
    const meter = new LagMeter(90_000);
    run(meter, 90, () => 5);
    meter.restart();
    // The next run's RTP time reads as 10 s behind the old one's: without the restart, 10 s late.
    expect(meter.measure(1_234_567 - 900_000, 1_000_000 + 3000)).toBe(0);
  });
});
