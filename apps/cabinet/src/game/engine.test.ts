import { describe, expect, it } from 'vitest';
import { evaluateLine, evaluateStops, fastSpin, LINE_TABLE, unpackLine } from './engine.js';
import { Rng, type Uint32Source } from './rng.js';
import {
  PAYLINES,
  REEL_STRIPS,
  ROWS,
  Sym,
  LINE_PAYS,
  SCATTER_PAYS,
  FREE_SPINS_AWARD,
} from '@reel/protocol';
import { computeDesignMath } from '@reel/protocol';

const W = Sym.Wild,
  S7 = Sym.Seven,
  CH = Sym.Cherry,
  LE = Sym.Lemon,
  SC = Sym.Scatter,
  BAR = Sym.Bar;

/** Finds a stop on `reel` whose window shows `symbol` at `row`. */
function stopWith(reel: number, row: number, symbol: number, avoidScatter = true): number {
  const strip = REEL_STRIPS[reel]!;
  for (let stop = 0; stop < strip.length; stop++) {
    const window = [0, 1, 2].map((r) => strip[(stop + r) % strip.length]);
    if (window[row] === symbol && (!avoidScatter || symbol === SC || !window.includes(SC))) return stop;
  }
  throw new Error('not on strip');
}

describe('line evaluation', () => {
  it('pays left-to-right runs of 3, 4 and 5', () => {
    expect(evaluateLine([S7, S7, S7, CH, LE])).toEqual({ symbol: S7, count: 3, pay: LINE_PAYS[S7]![0] });
    expect(evaluateLine([CH, CH, CH, CH, LE])).toEqual({ symbol: CH, count: 4, pay: LINE_PAYS[CH]![1] });
    expect(evaluateLine([BAR, BAR, BAR, BAR, BAR]).pay).toBe(LINE_PAYS[BAR]![2]);
  });
  it('does not pay runs that do not start on reel 1 or are shorter than 3', () => {
    expect(evaluateLine([LE, S7, S7, S7, S7]).pay).toBe(0);
    expect(evaluateLine([S7, S7, LE, S7, S7]).pay).toBe(0);
  });
  it('lets wilds substitute, and pays leading wilds as wilds when that is worth more', () => {
    expect(evaluateLine([W, S7, W, S7, CH])).toEqual({ symbol: S7, count: 4, pay: LINE_PAYS[S7]![1] });
    // WWW + cherry: 3 wilds (25) beats 4 cherries (8).
    expect(evaluateLine([W, W, W, CH, LE])).toEqual({ symbol: W, count: 3, pay: LINE_PAYS[W]![0] });
    expect(evaluateLine([W, W, W, W, W]).pay).toBe(LINE_PAYS[W]![2]);
  });
  it('never counts the scatter on a line', () => {
    expect(evaluateLine([SC, SC, SC, SC, SC]).pay).toBe(0);
    expect(evaluateLine([W, W, SC, S7, S7]).pay).toBe(0);
  });
  it('the lookup table agrees with the canonical rule', () => {
    for (let i = 0; i < LINE_TABLE.length; i += 97) {
      const s = String(i).padStart(5, '0').split('').map(Number);
      const direct = evaluateLine(s);
      const table = unpackLine(LINE_TABLE[i]!);
      expect(table.pay).toBe(direct.pay);
      if (direct.pay > 0) expect([table.symbol, table.count]).toEqual([direct.symbol, direct.count]);
    }
  });
});

describe('spin evaluation', () => {
  it('evaluates all 20 paylines over the window', () => {
    expect(PAYLINES).toHaveLength(20);
    expect(new Set(PAYLINES.map((l) => l.join())).size).toBe(20);
    const stops = [0, 1, 2, 3].map((r) => stopWith(r, 1, S7)).concat(stopWith(4, 1, LE));
    const ev = evaluateStops(stops);
    expect(ev.grid.map((c) => c[1])).toEqual([S7, S7, S7, S7, LE]);
    const middle = ev.lineWins.find((w) => w.line === 0);
    expect(middle).toMatchObject({ symbol: S7, count: 4, pay: LINE_PAYS[S7]![1] });
    expect(ev.linePay).toBe(ev.lineWins.reduce((a, w) => a + w.pay, 0));
  });
  it('pays scatters anywhere and awards free spins for 3 or more', () => {
    const stops = [0, 1, 2].map((r) => stopWith(r, r, SC)).concat([stopWith(3, 0, CH), stopWith(4, 0, LE)]);
    const ev = evaluateStops(stops);
    expect(ev.scatterCount).toBe(3);
    expect(ev.scatterPay).toBe(SCATTER_PAYS[3]);
    expect(ev.freeSpinsAwarded).toBe(FREE_SPINS_AWARD);
    const two = evaluateStops([
      stopWith(0, 0, SC),
      stopWith(1, 2, SC),
      stopWith(2, 1, CH),
      stopWith(3, 1, CH),
      stopWith(4, 1, CH),
    ]);
    expect(two.scatterCount).toBe(2);
    expect(two.freeSpinsAwarded).toBe(0);
  });
  it('keeps scatters at least a window apart so a reel never shows two', () => {
    for (const strip of REEL_STRIPS) {
      const at = [...strip.keys()].filter((i) => strip[i] === SC);
      for (let i = 0; i < at.length; i++)
        for (let j = 0; j < at.length; j++) {
          if (i === j) continue;
          const d = Math.abs(at[i]! - at[j]!);
          expect(Math.min(d, strip.length - d)).toBeGreaterThanOrEqual(ROWS);
        }
    }
  });
  it('the fast path matches the full evaluation', () => {
    const values: number[] = [];
    const source: Uint32Source = { nextUint32: () => values.shift() ?? 0 };
    for (let k = 0; k < 300; k++) {
      const stops = REEL_STRIPS.map((s, r) => (k * 7 + r * 13) % s.length);
      values.push(...stops);
      const packed = fastSpin(new Rng(source));
      const ev = evaluateStops(stops);
      expect(packed >> 3).toBe(ev.linePay + ev.scatterPay * 20);
      expect(packed & 7).toBe(ev.scatterCount);
    }
  });
  it('the design RTP lies between 95% and 96%', () => {
    const m = computeDesignMath();
    expect(m.totalRtp).toBeGreaterThan(0.95);
    expect(m.totalRtp).toBeLessThan(0.96);
  });
});
