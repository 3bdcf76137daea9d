import { describe, expect, it } from 'vitest';
import {
  BandStepper,
  GOOD_SECONDS_TO_STEP_UP,
  MIN_SECONDS_BETWEEN_STEPS,
  type LinkSample,
} from './band-stepper.js';

const HIGH = 1200;
const LOW = 400;
const clean: LinkSample = { lossFraction: 0, estimateKbps: null };
const lossy: LinkSample = { lossFraction: 0.08, estimateKbps: null };

function feed(
  s: BandStepper,
  sample: LinkSample,
  seconds: number,
  band = HIGH,
  upper: number | null = null,
  lowest = false,
) {
  const out = [];
  for (let i = 0; i < seconds; i++) out.push(s.sample(sample, band, upper, lowest));
  return out;
}

describe('BandStepper', () => {
  it('steps down after three bad seconds in a row, not on one lost burst', () => {
    const s = new BandStepper();
    expect(feed(s, lossy, 1)).toEqual([null]);
    expect(feed(s, clean, 1)).toEqual([null]);
    expect(feed(s, lossy, 3)).toEqual([null, null, 'down']);
  });

  it('steps down when the browser estimates less bandwidth than the band needs', () => {
    const s = new BandStepper();
    expect(feed(s, { lossFraction: 0, estimateKbps: 600 }, 3)).toEqual([null, null, 'down']);
  });

  it('never below the lowest band, and waits between steps', () => {
    const s = new BandStepper();
    expect(feed(s, lossy, 3, LOW, HIGH, true)).toEqual([null, null, null]);
    const t = new BandStepper();
    feed(t, lossy, 3);
    expect(feed(t, lossy, MIN_SECONDS_BETWEEN_STEPS - 1).every((x) => x === null)).toBe(true);
  });

  it('steps back up only after a long clean spell with room above', () => {
    const s = new BandStepper();
    feed(s, lossy, 3); // down
    const up = feed(s, clean, GOOD_SECONDS_TO_STEP_UP, LOW, HIGH, true);
    expect(up.slice(0, -1).every((x) => x === null)).toBe(true);
    expect(up.at(-1)).toBe('up');
    // No room: the estimate does not cover the upper band.
    const t = new BandStepper();
    expect(feed(t, { lossFraction: 0, estimateKbps: 1000 }, 30, LOW, HIGH, true).includes('up')).toBe(false);
    // Already at the top.
    expect(feed(new BandStepper(), clean, 30, HIGH, null).includes('up')).toBe(false);
  });
});
