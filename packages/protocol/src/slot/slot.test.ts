import { describe, expect, it } from 'vitest';
import { bandsAtFps, clampFps, DEFAULT_QUALITY_BANDS } from '../constants.js';
import { brandArt } from './brand-art.js';
import { buildPaytable } from './paytable.js';
import { SYMBOL_NAMES } from './config.js';
import { SYMBOL_IDS } from './symbol-ids.js';

describe('the shared slot definition', () => {
  it('gives each demo brand its own look and any brand a stable one', () => {
    const looks = ['Golden Reels', 'Lucky Sevens', 'Fruit Palace'].map((name) => brandArt(name));
    expect(looks.map((l) => l.title)).toEqual(['GOLDEN REELS', 'LUCKY SEVENS', 'FRUIT PALACE']);
    expect(new Set(looks.map((l) => l.marquee[0])).size).toBe(3);
    // Picked from the name, not its spelling: the same brand always looks the same.
    expect(brandArt(' diamond nights ')).toEqual(brandArt('Diamond Nights'));
    expect(brandArt('')).toMatchObject({ title: 'REEL LIVE' });
  });

  it('publishes the design RTP of the tables (apps/cabinet/README.md: 95.517 %)', () => {
    const table = buildPaytable();
    expect(Math.round(table.rtp.total * 100_000) / 1000).toBe(95.517);
    expect(table.rtp.base + table.rtp.freeSpins).toBeCloseTo(table.rtp.total, 12);
  });

  it('scales the bands with the frame rate and clamps it to 1..60', () => {
    expect(bandsAtFps(DEFAULT_QUALITY_BANDS, 30).map((b) => [b.fps, b.bitrateKbps])).toEqual([[30, 1200], [30, 400]]);
    expect(bandsAtFps(DEFAULT_QUALITY_BANDS, 15).map((b) => [b.fps, b.bitrateKbps])).toEqual([[15, 600], [15, 200]]);
    expect([clampFps(0), clampFps(120), clampFps('x'), clampFps(24.4)]).toEqual([1, 60, 30, 24]);
  });
});

describe('symbol ids by name', () => {
  it('name every symbol as the cycle reports it', () => {
    expect(Object.entries(SYMBOL_IDS).sort((a, b) => a[1] - b[1]).map(([name]) => name)).toEqual([...SYMBOL_NAMES]);
  });
});
