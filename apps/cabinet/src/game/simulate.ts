import { fastSpin } from './engine.js';
import { Rng } from './rng.js';
import { FREE_SPINS_AWARD, FREE_SPINS_TRIGGER, FREE_SPIN_MULTIPLIER, LINES } from '@reel/protocol';

export interface SimTotals {
  spins: number;
  /** In line-bet units; each paid spin bets LINES. */
  betUnits: number;
  winUnits: number;
  hits: number;
  freeSpins: number;
  triggers: number;
  /** Sum of squared per-paid-spin returns (in total-bet multiples) for the standard error. */
  sumSquares: number;
}

/** Plays `spins` paid spins (free spins they trigger included) with no allocation per spin. */
export function simulate(spins: number, rng = new Rng()): SimTotals {
  let winUnits = 0;
  let hits = 0;
  let freeSpins = 0;
  let triggers = 0;
  let sumSquares = 0;
  for (let i = 0; i < spins; i++) {
    const r = fastSpin(rng);
    let spinWin = r >> 3;
    if (spinWin > 0) hits++;
    if ((r & 7) >= FREE_SPINS_TRIGGER) {
      triggers++;
      let left = FREE_SPINS_AWARD;
      while (left > 0) {
        left--;
        freeSpins++;
        const f = fastSpin(rng);
        spinWin += (f >> 3) * FREE_SPIN_MULTIPLIER;
        if ((f & 7) >= FREE_SPINS_TRIGGER) left += FREE_SPINS_AWARD;
      }
    }
    winUnits += spinWin;
    const x = spinWin / LINES;
    sumSquares += x * x;
  }
  return { spins, betUnits: spins * LINES, winUnits, hits, freeSpins, triggers, sumSquares };
}
