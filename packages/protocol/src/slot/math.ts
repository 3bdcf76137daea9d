/**
 * Exact design RTP, computed from the tables (no simulation): reels are independent and every
 * cell of a reel's window has the strip's symbol distribution, so a line's expected pay is a sum
 * over the 10^5 symbol combinations weighted by per-reel symbol probabilities, and is the same for
 * every line. Scatters are at least ROWS apart on each strip, so a reel shows at most one and the
 * scatter count is a sum of independent Bernoulli variables.
 *
 * Free spins: each trigger awards F spins, each retriggering with probability p, so the expected
 * number of free spins per trigger is F / (1 - F p) (a branching process, finite while F p < 1).
 * RTP = B (1 + p · T · M) where B is the base spin return, T the free spins per trigger and M the
 * free-spin multiplier.
 */
import {
  FREE_SPINS_AWARD,
  FREE_SPINS_TRIGGER,
  FREE_SPIN_MULTIPLIER,
  REELS,
  REEL_STRIPS,
  ROWS,
  SCATTER_PAYS,
  SYMBOL_COUNT,
  Sym,
} from './config.js';
import { evaluateLine } from './line.js';

export interface DesignMath {
  lineRtp: number;
  scatterRtp: number;
  baseRtp: number;
  triggerProbability: number;
  freeSpinsPerTrigger: number;
  freeSpinRtp: number;
  totalRtp: number;
  scatterCountDistribution: number[];
}

export function computeDesignMath(): DesignMath {
  const probs = REEL_STRIPS.map((strip) => {
    const p = new Array<number>(SYMBOL_COUNT).fill(0);
    for (const s of strip) p[s]! += 1 / strip.length;
    return p;
  });
  let lineRtp = 0;
  const cells = new Array<number>(REELS).fill(0);
  const walk = (reel: number, prob: number): void => {
    if (prob === 0) return;
    if (reel === REELS) {
      const pay = evaluateLine(cells).pay;
      if (pay > 0) lineRtp += prob * pay;
      return;
    }
    for (let s = 0; s < SYMBOL_COUNT; s++) {
      cells[reel] = s;
      walk(reel + 1, prob * probs[reel]![s]!);
    }
  };
  walk(0, 1);

  let dist = [1];
  for (const strip of REEL_STRIPS) {
    const scatters = strip.filter((s) => s === Sym.Scatter).length;
    const visible = (scatters * ROWS) / strip.length;
    const next = new Array<number>(dist.length + 1).fill(0);
    dist.forEach((p, k) => {
      next[k]! += p * (1 - visible);
      next[k + 1]! += p * visible;
    });
    dist = next;
  }
  const scatterRtp = dist.reduce((acc, p, k) => acc + p * (SCATTER_PAYS[k] ?? 0), 0);
  const triggerProbability = dist.slice(FREE_SPINS_TRIGGER).reduce((a, b) => a + b, 0);
  const baseRtp = lineRtp + scatterRtp;
  const freeSpinsPerTrigger = FREE_SPINS_AWARD / (1 - FREE_SPINS_AWARD * triggerProbability);
  const freeSpinRtp = triggerProbability * freeSpinsPerTrigger * FREE_SPIN_MULTIPLIER * baseRtp;
  return {
    lineRtp,
    scatterRtp,
    baseRtp,
    triggerProbability,
    freeSpinsPerTrigger,
    freeSpinRtp,
    totalRtp: baseRtp + freeSpinRtp,
    scatterCountDistribution: dist,
  };
}
