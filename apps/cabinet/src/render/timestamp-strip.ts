/**
 * Latency strip: the frame's render time (epoch ms, low 32 bits) as 32 black/white blocks in the
 * top-left corner, 16 per row, most significant bit first. Block size is width/64 so the strip
 * survives the scaled-down bands. The page samples each block's centre after decoding and compares
 * with `performance.timeOrigin + performance.now()` (same machine, same clock).
 */
import type { SKRSContext2D } from '@napi-rs/canvas';

export const STRIP_BITS = 32;
export const STRIP_COLUMNS = 16;
export const STRIP_BLOCKS_PER_WIDTH = 64;

export const stripBlockSize = (width: number): number => width / STRIP_BLOCKS_PER_WIDTH;

export function drawTimestampStrip(ctx: SKRSContext2D, width: number, nowMs: number): void {
  const b = stripBlockSize(width);
  const value = nowMs % 2 ** 32;
  for (let i = 0; i < STRIP_BITS; i++) {
    const bit = Math.floor(value / 2 ** (STRIP_BITS - 1 - i)) % 2;
    ctx.fillStyle = bit ? '#ffffff' : '#000000';
    ctx.fillRect((i % STRIP_COLUMNS) * b, Math.floor(i / STRIP_COLUMNS) * b, Math.ceil(b), Math.ceil(b));
  }
}

/**
 * Decodes a strip from RGBA pixels; `nearMs` (the reader's clock) restores the high bits.
 * Returns null when a block is too grey to read (a frame still being refined by the decoder).
 */
export function decodeTimestampStrip(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  nearMs: number,
): number | null {
  const b = stripBlockSize(width);
  let value = 0;
  for (let i = 0; i < STRIP_BITS; i++) {
    const x = Math.floor(((i % STRIP_COLUMNS) + 0.5) * b);
    const y = Math.floor((Math.floor(i / STRIP_COLUMNS) + 0.5) * b);
    const o = (y * width + x) * 4;
    const luma = (rgba[o]! + rgba[o + 1]! + rgba[o + 2]!) / 3;
    if (luma > 90 && luma < 165) return null;
    value = value * 2 + (luma >= 128 ? 1 : 0);
  }
  const span = 2 ** 32;
  const base = nearMs - (nearMs % span);
  let best = base + value;
  for (const c of [best - span, best + span]) if (Math.abs(c - nearMs) < Math.abs(best - nearMs)) best = c;
  return best;
}
