import { describe, expect, it } from 'vitest';
import { KeyframeRequestLimiter } from './keyframe-requests.js';

describe('KeyframeRequestLimiter', () => {
  const opts = { minIntervalMs: 1000, naturalMarginMs: 300, keyframeIntervalMs: 1000 };

  it('requests at once, then at most once per interval however many PLIs come', () => {
    const l = new KeyframeRequestLimiter(opts);
    expect(l.onPictureLoss(10_000, 9_600)).toBe('request');
    for (let t = 10_010; t < 11_000; t += 10) expect(l.onPictureLoss(t, 9_600)).toBe('rate_limited');
    expect(l.onPictureLoss(11_000, 10_500)).toBe('request');
    expect([l.requests, l.suppressed]).toEqual([2, 99]);
  });

  it("skips the request when the encoder's own keyframe is due within the margin", () => {
    const l = new KeyframeRequestLimiter(opts);
    expect(l.onPictureLoss(10_000, 9_200)).toBe('natural_due'); // due in 200 ms
    expect(l.onPictureLoss(10_000, 8_800)).toBe('natural_due'); // 200 ms late: still coming
    expect(l.onPictureLoss(10_000, 9_500)).toBe('request'); // due in 500 ms
  });

  it('requests when keyframes stopped coming or none was ever seen', () => {
    expect(new KeyframeRequestLimiter(opts).onPictureLoss(10_000, 5_000)).toBe('request');
    expect(new KeyframeRequestLimiter(opts).onPictureLoss(10_000, null)).toBe('request');
  });
});
