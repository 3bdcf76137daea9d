import { expect, it } from 'vitest';
import { simulate } from './simulate.js';
import { computeDesignMath } from '@reel/protocol';

it('a short simulation lands near the design RTP', () => {
  const t = simulate(400_000);
  const rtp = t.winUnits / t.betUnits;
  // 400k spins: standard error ≈ 0.45 pp; 2.5 pp is more than 5 standard errors.
  expect(Math.abs(rtp - computeDesignMath().totalRtp)).toBeLessThan(0.025);
  expect(t.hits / t.spins).toBeGreaterThan(0.4);
  expect(t.triggers).toBeGreaterThan(0);
});
