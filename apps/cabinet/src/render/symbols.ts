/**
 * Symbol artwork, drawn once per size into bitmaps: the per-frame cost of a reel is then a few
 * `drawImage` calls instead of paths and gradients.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { drawSymbol, SYMBOL_COUNT } from '@reel/protocol';

/** Bitmaps of every symbol at w×h (a cell of the reel window). */
export function renderSymbolBitmaps(w: number, h: number): Canvas[] {
  const out: Canvas[] = [];
  for (let s = 0; s < SYMBOL_COUNT; s++) {
    const c = createCanvas(Math.max(1, Math.round(w)), Math.max(1, Math.round(h)));
    drawSymbol(c.getContext('2d'), s, c.width, c.height);
    out.push(c);
  }
  return out;
}
