import { describe, expect, it } from 'vitest';
import { STEP_DOWN_LOSS, STEP_UP_LOSS } from '@reel/media-control';
import { JanusLink, NOMINAL_VIDEO_PACKETS_PER_S } from './janus-link.js';

describe('JanusLink', () => {
  it('is null before the viewer is up and 0 on clean seconds', () => {
    const link = new JanusLink();
    expect(link.lossFraction(false, 0)).toBeNull();
    expect(link.lossFraction(true, 0)).toBe(0);
  });

  it('turns a slowlink count into a fraction of the top band packet rate, for a second and a half', () => {
    const link = new JanusLink();
    link.slowLink(10, 1_000);
    expect(link.lossFraction(true, 1_500)).toBeCloseTo(10 / NOMINAL_VIDEO_PACKETS_PER_S);
    expect(link.lossFraction(true, 1_500)).toBeGreaterThan(STEP_DOWN_LOSS);
    expect(link.lossFraction(true, 2_600)).toBe(0);
    expect(link.lossFraction(true, 2_600)).toBeLessThan(STEP_UP_LOSS);
  });

  it('caps the fraction at 1 and counts a slowlink without a count as the threshold', () => {
    const link = new JanusLink();
    link.slowLink(1_000, 0);
    expect(link.lossFraction(true, 0)).toBe(1);
    link.slowLink(undefined, 0);
    expect(link.lossFraction(true, 0)).toBeGreaterThan(0);
  });
});
