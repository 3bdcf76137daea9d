import { describe, expect, it } from 'vitest';
import { Rng, type Uint32Source } from './rng.js';

describe('Rng', () => {
  it('stays in range for many sizes', () => {
    const rng = new Rng();
    for (const n of [1, 2, 3, 7, 32, 33, 1000, 2 ** 31 + 1]) {
      for (let i = 0; i < 2000; i++) {
        const v = rng.int(n);
        expect(Number.isInteger(v) && v >= 0 && v < n).toBe(true);
      }
    }
  });
  it('rejects draws from the biased tail instead of folding them with modulo', () => {
    // n = 3: 2^32 % 3 = 1, so 2^32 - 1 is the single biased value and must be skipped.
    const draws = [0xffff_ffff, 0xffff_ffff, 5];
    const source: Uint32Source = { nextUint32: () => draws.shift()! };
    expect(new Rng(source).int(3)).toBe(5 % 3);
    expect(draws).toHaveLength(0);
  });
  it('is uniform (chi-square over 32 buckets)', () => {
    const rng = new Rng();
    const n = 32;
    const draws = 320_000;
    const counts = new Array<number>(n).fill(0);
    for (let i = 0; i < draws; i++) counts[rng.int(n)]!++;
    const expected = draws / n;
    const chi2 = counts.reduce((a, c) => a + (c - expected) ** 2 / expected, 0);
    // 31 degrees of freedom: p = 0.0001 at about 66.
    expect(chi2).toBeLessThan(66);
  });
  it('refuses empty or invalid ranges', () => {
    expect(() => new Rng().int(0)).toThrow(RangeError);
    expect(() => new Rng().int(1.5)).toThrow(RangeError);
  });
});
