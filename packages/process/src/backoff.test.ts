import { describe, expect, it } from 'vitest';
import { Backoff, backoffDelayMs } from './backoff.js';

describe('backoffDelayMs', () => {
  it('doubles from the first delay up to the cap, exactly when there is no jitter', () => {
    const policy = { initialMs: 500, maxMs: 8000 };
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(policy, n))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('spreads the delay by ±jitter around its base', () => {
    const policy = { initialMs: 1000, maxMs: 10_000, jitter: 0.25 };
    expect(backoffDelayMs(policy, 0, () => 0)).toBe(750);
    expect(backoffDelayMs(policy, 0, () => 0.5)).toBe(1000);
    expect(backoffDelayMs(policy, 0, () => 1)).toBe(1250);
    expect(backoffDelayMs(policy, 10, () => 1)).toBe(12_500);
  });
});

describe('Backoff', () => {
  it('counts its retries and starts over after a reset', () => {
    const backoff = new Backoff({ initialMs: 250, maxMs: 1000 });
    expect([backoff.next(), backoff.next(), backoff.next(), backoff.next()]).toEqual([250, 500, 1000, 1000]);
    expect(backoff.attempts).toBe(4);
    backoff.reset();
    expect(backoff.attempts).toBe(0);
    expect(backoff.next()).toBe(250);
  });

  it('draws its jitter from the random source it was given', () => {
    const backoff = new Backoff({ initialMs: 100, maxMs: 1000, jitter: 0.2 }, () => 0);
    expect([backoff.next(), backoff.next()]).toEqual([80, 160]);
  });
});
