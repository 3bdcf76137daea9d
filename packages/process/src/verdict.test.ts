import { afterEach, describe, expect, it } from 'vitest';
import { Verdict } from './verdict.js';

afterEach(() => {
  process.exitCode = 0;
});

describe('Verdict', () => {
  it('passes figures inside their goals and enough samples', () => {
    const v = new Verdict('test');
    expect(v.check('p95', 40, { max: 50, unit: 'ms' })).toContain('met');
    expect(v.check('ratio', 0.7, { min: 0.6 })).toContain('met');
    v.samples('frames', 100, 50);
    expect(v.finish()).toBe(true);
    expect(process.exitCode).not.toBe(1);
  });

  it('fails a missed goal, a missing figure, too few samples and an absent part', () => {
    for (const fail of [
      (v: Verdict) => v.check('p95', 60, { max: 50 }),
      (v: Verdict) => v.check('p95', Number.NaN, { max: 50 }),
      (v: Verdict) => v.samples('frames', 3, 50),
      (v: Verdict) => v.missing('janus', 'not installed'),
    ]) {
      const v = new Verdict('test');
      fail(v);
      expect(v.finish()).toBe(false);
      expect(process.exitCode).toBe(1);
      process.exitCode = 0;
    }
  });
});
