import { describe, expect, it } from 'vitest';
import { intervalLossPercent, isDegraded, isFrozen } from './link-health';

describe('link health', () => {
  it('calls the picture frozen only after more than a second without a new frame', () => {
    expect(isFrozen(null, 10_000)).toBe(false);
    expect(isFrozen(9_000, 10_000)).toBe(false);
    expect(isFrozen(8_999, 10_000)).toBe(true);
  });

  it('shows the connection degraded on a freeze, loss, jitter or a long round trip', () => {
    const ok = { rttMs: 40, jitterMs: 5, lossPercent: 0.5 };
    expect(isDegraded(ok, false)).toBe(false);
    expect(isDegraded(ok, true)).toBe(true);
    expect(isDegraded({ ...ok, lossPercent: 5 }, false)).toBe(true);
    expect(isDegraded({ ...ok, jitterMs: 80 }, false)).toBe(true);
    expect(isDegraded({ ...ok, rttMs: 500 }, false)).toBe(true);
    expect(isDegraded({ rttMs: null, jitterMs: null, lossPercent: null }, false)).toBe(false);
  });

  it('computes loss over the last interval from cumulative counters', () => {
    expect(intervalLossPercent({ received: 100, lost: 0 }, { received: 195, lost: 5 })).toBe(5);
    expect(intervalLossPercent({ received: 100, lost: 0 }, { received: 100, lost: 0 })).toBeNull();
  });
});
