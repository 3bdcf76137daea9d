/**
 * The play bench's in-page probe: what each player's page records of its game video.
 */
import { decodeTimestampStrip } from '@reel/protocol/timestamp-strip';
import { createReelSignature, createStripReader, signatureMotion } from '../video/page/frame-probe.js';

/**
 * In-page probes: every presented frame of the game's <video> (rVFC) is timed, its reel area reduced
 * to a small grey signature (motion = mean difference from the previous frame), and the timestamp
 * strip decoded (render time, epoch ms). The same readers as e2e/bench/video.ts (e2e/video/page/frame-probe.ts),
 * given to the page as source text.
 */
export function installProbes() {
  const frames: { atMs: number; wallMs: number; motion: number; renderedAtMs: number | null }[] = [];
  const readStrip = createStripReader(decodeTimestampStrip);
  const reelSignature = createReelSignature();
  let lastSig: Float32Array | null = null;
  let watched: HTMLVideoElement | null = null;
  const probe = { frames, recording: false, strip: false };
  (window as unknown as { probe: typeof probe }).probe = probe;

  const onFrame = (video: HTMLVideoElement) => () => {
    const atMs = performance.now();
    // Wall clock, like the cabinet's strip: a long-lived page's timeOrigin + now() drifts from it.
    const wallMs = Date.now();
    if (probe.recording && video.videoWidth) {
      const sig = reelSignature(video);
      const motion = lastSig ? signatureMotion(sig, lastSig) : 0;
      lastSig = sig;
      frames.push({ atMs, wallMs, motion, renderedAtMs: probe.strip ? readStrip(video, Date.now()) : null });
      if (frames.length > 2000) frames.splice(0, 1000);
    }
    if (video === watched) video.requestVideoFrameCallback(onFrame(video));
  };
  // The game screen mounts its <video> after navigation; watch whichever one is current.
  setInterval(() => {
    const video = document.querySelector<HTMLVideoElement>('[data-testid="game-video"]');
    if (video && video !== watched) {
      watched = video;
      lastSig = null;
      video.requestVideoFrameCallback(onFrame(video));
    }
  }, 50);
}

export interface Probe {
  frames: { atMs: number; wallMs: number; motion: number; renderedAtMs: number | null }[];
  recording: boolean;
  strip: boolean;
}
