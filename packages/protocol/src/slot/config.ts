/**
 * The simulated cabinet's game: a 5-reel, 3-row video slot with 20 paylines, a wild, and a
 * scatter that pays anywhere and triggers free spins. The math (target RTP) is derived in
 * `math.ts` from exactly these tables and documented in apps/cabinet/README.md. It lives in the
 * shared package so the server can publish the paytable (`GET /api/machine/paytable`) from the very
 * tables the cabinets play.
 */
import { SlotSymbol } from '../agent.js';

export const REELS = 5;
export const ROWS = 3;

// The symbol ids live beside their artwork (symbol-ids.ts), which the web app draws without the schemas.
export { Sym, SYMBOL_COUNT } from './symbol-ids.js';
import { Sym } from './symbol-ids.js';
export const SYMBOL_NAMES: readonly string[] = [
  SlotSymbol.Wild,
  SlotSymbol.Seven,
  SlotSymbol.Bar,
  SlotSymbol.Bell,
  SlotSymbol.Melon,
  SlotSymbol.Plum,
  SlotSymbol.Orange,
  SlotSymbol.Lemon,
  SlotSymbol.Cherry,
  SlotSymbol.Scatter,
];

/** Line pays in multiples of the line bet for 3, 4 and 5 of a kind (left to right). */
export const LINE_PAYS: readonly (readonly [number, number, number])[] = [
  [25, 100, 500], // WILD (also substitutes for every symbol but the scatter)
  [20, 80, 250], // SEVEN
  [15, 50, 150], // BAR
  [10, 30, 100], // BELL
  [8, 20, 75], // MELON
  [5, 15, 50], // PLUM
  [5, 12, 40], // ORANGE
  [3, 10, 30], // LEMON
  [2, 8, 25], // CHERRY
  [0, 0, 0], // SCATTER pays through SCATTER_PAYS instead
];

/** Scatter pays in multiples of the total bet, indexed by the number of scatters visible (0..5). */
export const SCATTER_PAYS: readonly number[] = [0, 0, 0, 2, 10, 50];
export const FREE_SPINS_TRIGGER = 3;
export const FREE_SPINS_AWARD = 10;
/** All wins during free spins are multiplied; free spins can retrigger. */
export const FREE_SPIN_MULTIPLIER = 2;

/** Odds of the jackpot flag on a paid spin; paid by the platform's pool, outside the machine RTP. */
export const JACKPOT_ODDS = 250_000;

/** Rows (0 = top) per reel for each of the 20 paylines. */
export const PAYLINES: readonly (readonly number[])[] = [
  [1, 1, 1, 1, 1],
  [0, 0, 0, 0, 0],
  [2, 2, 2, 2, 2],
  [0, 1, 2, 1, 0],
  [2, 1, 0, 1, 2],
  [0, 0, 1, 2, 2],
  [2, 2, 1, 0, 0],
  [1, 0, 0, 0, 1],
  [1, 2, 2, 2, 1],
  [0, 1, 1, 1, 0],
  [2, 1, 1, 1, 2],
  [1, 0, 1, 2, 1],
  [1, 2, 1, 0, 1],
  [0, 1, 0, 1, 0],
  [2, 1, 2, 1, 2],
  [1, 1, 0, 1, 1],
  [1, 1, 2, 1, 1],
  [0, 0, 2, 0, 0],
  [2, 2, 0, 2, 2],
  [0, 2, 2, 2, 0],
];
export const LINES = PAYLINES.length;

/** Total bet per spin in cents for each bet level (line bet × 20 lines, always whole cents). */
export const BET_LEVELS_CENTS: readonly number[] = [20, 40, 100, 200, 500, 1000];

/**
 * Symbol counts per reel strip (index = symbol id). Strips are built from these by `buildStrip`,
 * which spreads symbols evenly and keeps scatters at least ROWS apart, so a reel never shows two.
 */
export const REEL_COUNTS: readonly (readonly number[])[] = [
  // W  7  B  Be Me Pl Or Le Ch Sc
  [3, 2, 2, 3, 4, 4, 4, 4, 5, 1],
  [3, 2, 2, 3, 4, 4, 4, 4, 5, 1],
  [4, 2, 3, 3, 3, 4, 4, 4, 4, 1],
  [3, 2, 3, 3, 4, 4, 4, 4, 4, 1],
  [3, 2, 2, 4, 4, 4, 4, 4, 4, 1],
];

/**
 * Deterministic strip layout: deal symbols in a fixed interleaved order so equal symbols are
 * spread out (like a real strip, not clumped), then place the scatter(s) far apart.
 */
export function buildStrip(counts: readonly number[]): Uint8Array {
  const scatters = counts[Sym.Scatter] ?? 0;
  const others: number[] = [];
  const left = counts.map((c, s) => (s === Sym.Scatter ? 0 : c));
  let remaining = left.reduce((a, b) => a + b, 0);
  // Largest-remainder interleave: always take the symbol with the most copies left, skipping the
  // one just placed when possible.
  let last = -1;
  while (remaining > 0) {
    let best = -1;
    for (let s = 0; s < left.length; s++) {
      if (left[s]! === 0 || s === last) continue;
      if (best === -1 || left[s]! > left[best]!) best = s;
    }
    if (best === -1) best = last;
    others.push(best);
    left[best]!--;
    remaining--;
    last = best;
  }
  const total = others.length + scatters;
  const strip = new Uint8Array(total);
  const scatterAt = new Set<number>();
  for (let i = 0; i < scatters; i++) scatterAt.add(Math.floor(((i + 0.5) * total) / scatters));
  let k = 0;
  for (let i = 0; i < total; i++) strip[i] = scatterAt.has(i) ? Sym.Scatter : others[k++]!;
  return strip;
}

export const REEL_STRIPS: readonly Uint8Array[] = REEL_COUNTS.map(buildStrip);
