/**
 * Latency strip: the frame's render time (epoch ms, low 32 bits) as 32 black/white blocks in the
 * top-left corner, 16 per row, most significant bit first. Block size is width/64 so the strip
 * survives the scaled-down bands. The page samples each block's centre after decoding and compares
 * with `performance.timeOrigin + performance.now()` (same machine, same clock).
 */
import type { SKRSContext2D } from '@napi-rs/canvas';

import { STRIP_BITS, STRIP_COLUMNS, stripBlockSize } from '@reel/protocol/timestamp-strip';

export function drawTimestampStrip(ctx: SKRSContext2D, width: number, nowMs: number): void {
  const b = stripBlockSize(width);
  const value = nowMs % 2 ** 32;
  for (let i = 0; i < STRIP_BITS; i++) {
    const bit = Math.floor(value / 2 ** (STRIP_BITS - 1 - i)) % 2;
    ctx.fillStyle = bit ? '#ffffff' : '#000000';
    ctx.fillRect((i % STRIP_COLUMNS) * b, Math.floor(i / STRIP_COLUMNS) * b, Math.ceil(b), Math.ceil(b));
  }
}
