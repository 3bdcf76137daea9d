/**
 * Pure evaluation of the video slot: line wins, scatter wins, free-spin awards. No I/O, no clock;
 * the RNG is passed in so tests can drive exact reel stops.
 */
import {
  evaluateLine,
  FREE_SPINS_AWARD,
  FREE_SPINS_TRIGGER,
  JACKPOT_ODDS,
  LINES,
  PAYLINES,
  REELS,
  REEL_STRIPS,
  ROWS,
  SCATTER_PAYS,
  SYMBOL_COUNT,
  Sym,
  type LineResult,
} from '@reel/protocol';
import type { Rng } from './rng.js';

export { evaluateLine } from '@reel/protocol';

const RADIX = [10_000, 1_000, 100, 10, 1] as const;
const PACK_SYMBOL = 8; // pay << PACK_SHIFT | symbol << 3 | count
const PACK_SHIFT = 8;

/** Every possible line (10^5 symbol combinations) evaluated once: the hot path is a table read. */
export const LINE_TABLE: Int32Array = (() => {
  const table = new Int32Array(SYMBOL_COUNT ** REELS);
  const s = new Uint8Array(REELS);
  for (let i = 0; i < table.length; i++) {
    let v = i;
    for (let r = REELS - 1; r >= 0; r--) {
      s[r] = v % SYMBOL_COUNT;
      v = Math.floor(v / SYMBOL_COUNT);
    }
    const res = evaluateLine(s);
    table[i] = res.pay > 0 ? (res.pay << PACK_SHIFT) | (res.symbol * PACK_SYMBOL) | res.count : 0;
  }
  return table;
})();

export const unpackLine = (v: number): LineResult =>
  v === 0
    ? { symbol: -1, count: 0, pay: 0 }
    : { pay: v >> PACK_SHIFT, symbol: (v & 0xff) >> 3, count: v & 7 };

/**
 * Per reel, per stop, per row: the symbol already multiplied by its radix, so a line's table index
 * is a sum of five reads.
 */
const CELL_INDEX: readonly Int32Array[] = REEL_STRIPS.map((strip, r) => {
  const out = new Int32Array(strip.length * ROWS);
  for (let stop = 0; stop < strip.length; stop++)
    for (let row = 0; row < ROWS; row++)
      out[stop * ROWS + row] = strip[(stop + row) % strip.length]! * RADIX[r]!;
  return out;
});
/** Per reel, per stop: 1 when the scatter is visible in the window. */
const SCATTER_VISIBLE: readonly Uint8Array[] = REEL_STRIPS.map((strip) => {
  const out = new Uint8Array(strip.length);
  for (let stop = 0; stop < strip.length; stop++)
    for (let row = 0; row < ROWS; row++)
      if (strip[(stop + row) % strip.length] === Sym.Scatter) out[stop]! += 1;
  return out;
});
const STRIP_LENGTHS = REEL_STRIPS.map((s) => s.length);
const LINE_ROWS = new Int32Array(LINES * REELS);
PAYLINES.forEach((rows, l) => rows.forEach((row, r) => (LINE_ROWS[l * REELS + r] = row)));

export interface SpinEvaluation {
  stops: number[];
  /** symbols[reel][row] as ids. */
  grid: number[][];
  lineWins: { line: number; symbol: number; count: number; pay: number }[];
  /** Sum of line pays, in line-bet multiples. */
  linePay: number;
  scatterCount: number;
  /** Scatter pay in total-bet multiples. */
  scatterPay: number;
  freeSpinsAwarded: number;
}

export function drawStops(rng: Rng): number[] {
  return STRIP_LENGTHS.map((len) => rng.int(len));
}

export function evaluateStops(stops: readonly number[]): SpinEvaluation {
  const grid: number[][] = [];
  for (let r = 0; r < REELS; r++) {
    const strip = REEL_STRIPS[r]!;
    const col: number[] = [];
    for (let row = 0; row < ROWS; row++) col.push(strip[(stops[r]! + row) % strip.length]!);
    grid.push(col);
  }
  const lineWins: SpinEvaluation['lineWins'] = [];
  let linePay = 0;
  const cells = new Array<number>(REELS);
  for (let l = 0; l < LINES; l++) {
    for (let r = 0; r < REELS; r++) cells[r] = grid[r]![PAYLINES[l]![r]!]!;
    const res = evaluateLine(cells);
    if (res.pay > 0) {
      lineWins.push({ line: l, ...res });
      linePay += res.pay;
    }
  }
  let scatterCount = 0;
  for (const col of grid) for (const s of col) if (s === Sym.Scatter) scatterCount++;
  return {
    stops: [...stops],
    grid,
    lineWins,
    linePay,
    scatterCount,
    scatterPay: SCATTER_PAYS[scatterCount] ?? 0,
    freeSpinsAwarded: scatterCount >= FREE_SPINS_TRIGGER ? FREE_SPINS_AWARD : 0,
  };
}

export const rollJackpot = (rng: Rng): boolean => rng.int(JACKPOT_ODDS) === 0;

/**
 * The simulator's hot path: one spin's total pay in line-bet units and its scatter count, without
 * allocating. Returns pay * 8 + scatterCount (scatterCount ≤ 5).
 */
export function fastSpin(rng: Rng): number {
  let pay = 0;
  const s0 = rng.int(STRIP_LENGTHS[0]!) * ROWS;
  const s1 = rng.int(STRIP_LENGTHS[1]!) * ROWS;
  const s2 = rng.int(STRIP_LENGTHS[2]!) * ROWS;
  const s3 = rng.int(STRIP_LENGTHS[3]!) * ROWS;
  const s4 = rng.int(STRIP_LENGTHS[4]!) * ROWS;
  const c0 = CELL_INDEX[0]!;
  const c1 = CELL_INDEX[1]!;
  const c2 = CELL_INDEX[2]!;
  const c3 = CELL_INDEX[3]!;
  const c4 = CELL_INDEX[4]!;
  for (let l = 0, o = 0; l < LINES; l++, o += REELS) {
    const idx =
      c0[s0 + LINE_ROWS[o]!]! +
      c1[s1 + LINE_ROWS[o + 1]!]! +
      c2[s2 + LINE_ROWS[o + 2]!]! +
      c3[s3 + LINE_ROWS[o + 3]!]! +
      c4[s4 + LINE_ROWS[o + 4]!]!;
    pay += LINE_TABLE[idx]! >> PACK_SHIFT;
  }
  const sc =
    SCATTER_VISIBLE[0]![s0 / ROWS]! +
    SCATTER_VISIBLE[1]![s1 / ROWS]! +
    SCATTER_VISIBLE[2]![s2 / ROWS]! +
    SCATTER_VISIBLE[3]![s3 / ROWS]! +
    SCATTER_VISIBLE[4]![s4 / ROWS]!;
  pay += SCATTER_PAYS[sc]! * LINES;
  return pay * 8 + sc;
}
