/**
 * The latency strip: a frame's render time (epoch ms, low 32 bits) as 32 black/white blocks in the
 * top-left corner, 16 per row, most significant bit first. Block size is width/64 so the strip
 * survives the scaled-down bands. The cabinet draws it; the video tests and benchmarks read it.
 */
export const STRIP_BITS = 32;
export const STRIP_COLUMNS = 16;
export const STRIP_BLOCKS_PER_WIDTH = 64;

export const stripBlockSize = (frameWidth: number): number => frameWidth / STRIP_BLOCKS_PER_WIDTH;

/**
 * Decodes a strip from RGBA pixels whose rows are `stride` pixels wide, taken from the top-left of a
 * frame `frameWidth` wide; `nearMs` (the reader's clock) restores the high bits. Null when a block
 * is too grey to read (a frame the decoder is still refining). Self-contained on purpose: benchmark
 * pages receive it as source text (`decodeTimestampStrip.toString()`), without its module.
 */
export function decodeTimestampStrip(rgba: ArrayLike<number>, stride: number, frameWidth: number, nearMs: number): number | null {
  const bits = 32;
  const columns = 16;
  const block = frameWidth / 64;
  let value = 0;
  for (let i = 0; i < bits; i++) {
    const x = Math.floor(((i % columns) + 0.5) * block);
    const y = Math.floor((Math.floor(i / columns) + 0.5) * block);
    const o = (y * stride + x) * 4;
    const luma = (rgba[o]! + rgba[o + 1]! + rgba[o + 2]!) / 3;
    if (luma > 90 && luma < 165) return null;
    value = value * 2 + (luma >= 128 ? 1 : 0);
  }
  const span = 2 ** 32;
  let best = nearMs - (nearMs % span) + value;
  for (const candidate of [best - span, best + span]) if (Math.abs(candidate - nearMs) < Math.abs(best - nearMs)) best = candidate;
  return best;
}
