/**
 * The paytable players read (`GET /api/machine/paytable`), built from the very tables the cabinets
 * play (config.ts) and the exact design RTP (math.ts): nothing is typed twice.
 */
import { SlotSymbol } from '../agent.js';
import {
  BET_LEVELS_CENTS,
  FREE_SPINS_AWARD,
  FREE_SPINS_TRIGGER,
  FREE_SPIN_MULTIPLIER,
  JACKPOT_ODDS,
  LINE_PAYS,
  PAYLINES,
  REELS,
  REEL_STRIPS,
  ROWS,
  SCATTER_PAYS,
  SYMBOL_NAMES,
  Sym,
} from './config.js';
import { computeDesignMath } from './math.js';

export interface PaytableData {
  reels: number;
  rows: number;
  lines: number;
  betLevelsCents: number[];
  /** Symbols from the highest pay down; `pays` are line-bet multiples for 3, 4 and 5 of a kind. */
  symbols: { symbol: string; kind: 'wild' | 'regular' | 'scatter'; pays: number[]; stopsPerReel: number[] }[];
  /** Scatter pays anywhere, as total-bet multiples by count. */
  scatterPays: { count: number; multiplier: number }[];
  freeSpins: { trigger: number; award: number; multiplier: number; retrigger: boolean };
  /** Rows (0 = top) per reel for each payline, in payline order. */
  paylines: number[][];
  /** Design return to player as fractions (0.95 = 95 %), exact from the reel strips. */
  rtp: {
    total: number;
    base: number;
    lines: number;
    scatter: number;
    freeSpins: number;
    freeSpinTriggerProbability: number;
  };
  /** A paid spin's odds of the jackpot flag; jackpots are paid from the brand's pool, outside the RTP. */
  jackpotOdds: number;
}

let cached: PaytableData | null = null;

export function buildPaytable(): PaytableData {
  if (cached) return cached;
  const math = computeDesignMath();
  const stops = (id: number) => REEL_STRIPS.map((strip) => strip.filter((s) => s === id).length);
  const symbols = SYMBOL_NAMES.map((symbol, id) => ({
    symbol,
    kind:
      id === Sym.Wild ? ('wild' as const) : id === Sym.Scatter ? ('scatter' as const) : ('regular' as const),
    pays: id === Sym.Scatter ? SCATTER_PAYS.slice(3) : [...LINE_PAYS[id]!],
    stopsPerReel: stops(id),
  }));
  cached = {
    reels: REELS,
    rows: ROWS,
    lines: PAYLINES.length,
    betLevelsCents: [...BET_LEVELS_CENTS],
    symbols,
    scatterPays: SCATTER_PAYS.map((multiplier, count) => ({ count, multiplier })).filter(
      (p) => p.multiplier > 0,
    ),
    freeSpins: {
      trigger: FREE_SPINS_TRIGGER,
      award: FREE_SPINS_AWARD,
      multiplier: FREE_SPIN_MULTIPLIER,
      retrigger: true,
    },
    paylines: PAYLINES.map((rows) => [...rows]),
    rtp: {
      total: math.totalRtp,
      base: math.baseRtp,
      lines: math.lineRtp,
      scatter: math.scatterRtp,
      freeSpins: math.freeSpinRtp,
      freeSpinTriggerProbability: math.triggerProbability,
    },
    jackpotOdds: JACKPOT_ODDS,
  };
  return cached;
}

/** The scatter's name, for texts ("3 STAR anywhere"). */
export const SCATTER_SYMBOL = SlotSymbol.Scatter;
