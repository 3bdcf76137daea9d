/** The canonical payline rule of the video slot, shared by the cabinet's engine and the design-math. */
import { LINE_PAYS, REELS, Sym } from './config.js';

export interface LineResult {
  /** Paying symbol id (WILD when the line is all leading wilds paying as wilds), -1 if none. */
  symbol: number;
  count: number;
  /** Multiple of the line bet. */
  pay: number;
}

/**
 * The canonical line rule: left to right from reel 1; wilds stand in for the first non-wild
 * symbol; a run of leading wilds may instead pay as wilds, whichever pays more; scatters never
 * count on a line.
 */
export function evaluateLine(symbols: ArrayLike<number>): LineResult {
  let wildRun = 0;
  while (wildRun < REELS && symbols[wildRun] === Sym.Wild) wildRun++;
  const wildPay = wildRun >= 3 ? LINE_PAYS[Sym.Wild]![wildRun - 3]! : 0;
  let best: LineResult = {
    symbol: wildPay > 0 ? Sym.Wild : -1,
    count: wildPay > 0 ? wildRun : 0,
    pay: wildPay,
  };
  if (wildRun < REELS) {
    const target = symbols[wildRun]!;
    if (target !== Sym.Scatter) {
      let count = wildRun + 1;
      while (count < REELS && (symbols[count] === target || symbols[count] === Sym.Wild)) count++;
      const pay = count >= 3 ? LINE_PAYS[target]![count - 3]! : 0;
      if (pay > best.pay) best = { symbol: target, count, pay };
    }
  }
  return best;
}
