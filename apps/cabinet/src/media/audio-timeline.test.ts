import { describe, expect, it } from 'vitest';
import { AudioTimeline } from './audio-timeline.js';

const RATE = 48_000;
const timeline = () =>
  new AudioTimeline({ sampleRate: RATE, maxSoundSamples: 9600, maxBacklogBytes: 9600, maxSilenceSamples: RATE * 5 });

/** Calls next() every 20 ms from `fromMs` to `toMs`, with the backlog `backlog(t)`; returns what was written. */
function run(t: AudioTimeline, fromMs: number, toMs: number, backlog: (ms: number) => number) {
  let silence = 0;
  let sound = 0;
  for (let ms = fromMs; ms <= toMs; ms += 20) {
    const step = t.next(ms, backlog(ms));
    silence += step?.silence ?? 0;
    sound += step?.sound ?? 0;
  }
  return { silence, sound };
}

describe("the encoder's audio keeps up with the wall clock", () => {
  it('in steady play every sample is sound', () => {
    const t = timeline();
    t.start(0);
    expect(run(t, 0, 2000, () => 0)).toEqual({ silence: 0, sound: RATE * 2 });
  });

  it('an encoder that stops reading for 2 s gets that time as silence once it reads again: none is dropped', () => {
    const t = timeline();
    t.start(0);
    run(t, 0, 1000, () => 0);
    // ffmpeg stopped (SIGSTOP, a starved CPU): its pipe stays full, nothing is written.
    expect(run(t, 1020, 3000, () => 50_000)).toEqual({ silence: 0, sound: 0 });
    const after = run(t, 3020, 3020, () => 0);
    expect(after.silence + after.sound).toBe(Math.floor((3020 * RATE) / 1000) - RATE);
    expect(after.sound).toBe(9600);
    expect(t.samplesWritten).toBe(Math.floor((3020 * RATE) / 1000));
  });

  it("the cabinet's own stall (no call for 700 ms) is caught up in one write, not cut to 200 ms", () => {
    const t = timeline();
    t.start(0);
    run(t, 0, 1000, () => 0);
    const step = t.next(1700, 0)!;
    expect(step.silence + step.sound).toBe(Math.floor(0.7 * RATE));
    expect(t.samplesWritten).toBe(Math.floor(1.7 * RATE));
  });

  it('a very long stall goes in as silence in pieces, then sound again', () => {
    const t = timeline();
    t.start(0);
    expect(t.next(12_000, 0)).toEqual({ silence: RATE * 5, sound: 0 });
    expect(t.next(12_000, 0)).toEqual({ silence: RATE * 5, sound: 0 });
    expect(t.next(12_000, 0)).toEqual({ silence: RATE * 2 - 9600, sound: 9600 });
    expect(t.next(12_000, 0)).toBeNull();
  });

  it('a new run starts its own count', () => {
    const t = timeline();
    t.start(0);
    run(t, 0, 500, () => 0);
    t.start(10_000);
    expect(t.next(10_020, 0)).toEqual({ silence: 0, sound: 960 });
  });
});
