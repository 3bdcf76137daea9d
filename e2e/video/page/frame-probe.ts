/**
 * What the video benchmarks read off each presented frame of a <video>: the render time in the
 * timestamp strip and the motion of the reels. Shared by the video test page (bundled by the
 * harness) and the play bench, which injects these functions into the web app's page as source
 * text (`toString()`, like decodeTimestampStrip): so each is self-contained, with no imports and no
 * module state.
 */
import type { decodeTimestampStrip } from '@reel/protocol/timestamp-strip';

/**
 * A reader of the strip that copies just its corner of the frame (cheap even without a GPU) and
 * decodes it with `decode` (decodeTimestampStrip; passed in so the page can be given it as text).
 */
export function createStripReader(decode: typeof decodeTimestampStrip): (video: HTMLVideoElement, nowMs: number) => number | null {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  return (video, nowMs) => {
    const w = video.videoWidth;
    // The strip's geometry (packages/protocol/src/timestamp-strip.ts): 16 blocks a row, 2 rows, width/64 each.
    const b = w / 64;
    const sw = Math.ceil(b * 16);
    const sh = Math.ceil(b * 2);
    if (canvas.width !== sw || canvas.height !== sh) {
      canvas.width = sw;
      canvas.height = sh;
    }
    ctx.drawImage(video, 0, 0, sw, sh, 0, 0, sw, sh);
    return decode(ctx.getImageData(0, 0, sw, sh).data, sw, w, nowMs);
  };
}

/**
 * A reader of the reel window's grey levels scaled down by a canvas (32×12): robust to codec
 * noise, sensitive to motion. The window is the reels' box in the 640×360 design layout (see
 * apps/cabinet/src/render/renderer.ts), scaled to the frame.
 */
export function createReelSignature(): (video: HTMLVideoElement) => Float32Array {
  const REELS_BOX = { x: 64 / 640, y: 54 / 360, w: 512 / 640, h: 222 / 360 };
  const SIG_W = 32;
  const SIG_H = 12;
  const canvas = document.createElement('canvas');
  canvas.width = SIG_W * 2;
  canvas.height = SIG_H * 2;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  return (video) => {
    const w = video.videoWidth;
    const h = video.videoHeight;
    ctx.drawImage(video, REELS_BOX.x * w, REELS_BOX.y * h, REELS_BOX.w * w, REELS_BOX.h * h, 0, 0, canvas.width, canvas.height);
    const img = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const sig = new Float32Array(SIG_W * SIG_H);
    for (let y = 0; y < canvas.height; y++)
      for (let x = 0; x < canvas.width; x++) {
        const o = (y * canvas.width + x) * 4;
        sig[(y >> 1) * SIG_W + (x >> 1)]! += (img[o]! + img[o + 1]! + img[o + 2]!) / 12;
      }
    return sig;
  };
}

/** Motion between two reel signatures: their mean absolute difference (0..255). */
export function signatureMotion(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs(a[i]! - b[i]!);
  return d / a.length;
}
