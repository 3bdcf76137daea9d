/**
 * Test page logic (bundled by the harness with esbuild): receives a machine's video through the
 * same VideoConnection the web app uses, and exposes probes for tests and the benchmark.
 */
import { VideoConnection, readVideoStats, type VideoGrant } from '../../../apps/web/src/lib/video/index.js';
import { decodeTimestampStrip } from '@reel/protocol/timestamp-strip';
import { createReelSignature, createStripReader, signatureMotion } from './frame-probe.js';

/** Every time here is wall-clock epoch ms (see `now`). */
export interface FrameRecord {
  /** When the frame callback ran. */
  atMs: number;
  /** Render time decoded from the strip (null when unreadable or strip off). */
  renderedAtMs: number | null;
  /** Mean absolute difference of the reel area from the previous frame (0..255). */
  motion: number;
  /** rVFC metadata: when the frame is expected to be visible on screen. */
  expectedDisplayMs: number;
  /** rVFC metadata: when the decoded frame was handed to the compositor. */
  presentedMs: number;
  /** rVFC metadata (WebRTC only): when the frame's last packet arrived; null when absent. */
  receivedMs: number | null;
  /** rVFC metadata: decode time of this frame in ms; null when absent. */
  processingMs: number | null;
}

const video = document.querySelector('video')!;
let conn: VideoConnection | null = null;
let firstFrameMs: number | null = null;
/** Wall-clock ms the current join started at (given by the benchmark, else `start()`'s call). */
let joinMs = 0;
/** First presented frame after the join, and the first whose strip shows a render after the join. */
let firstPresented: { atMs: number; renderedAtMs: number | null } | null = null;
let firstFreshMs: number | null = null;
let lastSig: Float32Array | null = null;
const frames: FrameRecord[] = [];
let recording = false;
let frameLoop = false;

/**
 * The one clock of the benchmark: the wall clock, `Date.now()`, which is what the cabinet (a Node
 * process on the same machine) encodes into the timestamp strip (apps/cabinet/src/media/frame-pump.ts
 * renders with `Date.now()`). Not `performance.timeOrigin + performance.now()`: that monotonic clock
 * drifts from the wall clock over a long-lived page. rVFC metadata comes in the performance
 * timebase; each callback maps it onto the wall clock with an offset sampled in that same callback.
 */
const now = () => Date.now();

async function fetchGrant(machineId: number): Promise<VideoGrant> {
  const res = await fetch(`/test/grant/${machineId}`, { method: 'POST' });
  if (!res.ok) throw new Error(`grant ${res.status}`);
  return (await res.json()) as VideoGrant;
}

const readStrip = createStripReader(decodeTimestampStrip);
const reelSignature = createReelSignature();

function onFrame(_perfNow: DOMHighResTimeStamp, meta: VideoFrameCallbackMetadata): void {
  // Time first: the frame is being presented now; the pixel work below must not count.
  const atMs = now();
  const toWall = atMs - performance.now();
  const size = video.videoWidth ? { w: video.videoWidth, h: video.videoHeight } : null;
  if (size && (firstPresented === null || firstFreshMs === null)) {
    const renderedAtMs = readStrip(video, now());
    firstPresented ??= { atMs, renderedAtMs };
    // A misread strip can decode to any time: one from the future is not a fresh frame.
    if (firstFreshMs === null && renderedAtMs !== null && renderedAtMs >= joinMs && renderedAtMs <= atMs + 1000) firstFreshMs = atMs;
  }
  if (size && recording) {
    const sig = reelSignature(video);
    frames.push({
      atMs,
      renderedAtMs: readStrip(video, now()),
      motion: lastSig ? signatureMotion(sig, lastSig) : 0,
      expectedDisplayMs: meta.expectedDisplayTime + toWall,
      presentedMs: meta.presentationTime + toWall,
      receivedMs: meta.receiveTime !== undefined ? meta.receiveTime + toWall : null,
      processingMs: meta.processingDuration !== undefined ? meta.processingDuration * 1000 : null,
    });
    lastSig = sig;
  }
  video.requestVideoFrameCallback(onFrame);
}

const api = {
  /** `joinStartedMs`: wall-clock start of the join when the benchmark did part of it (a cold stream start). */
  async start(machineId: number, joinStartedMs?: number): Promise<void> {
    joinMs = joinStartedMs ?? now();
    firstFrameMs = null;
    firstPresented = null;
    firstFreshMs = null;
    conn?.close();
    conn = new VideoConnection({ grant: () => fetchGrant(machineId), video });
    conn.on('firstFrame', (ms) => (firstFrameMs = ms));
    await conn.connect();
    if (!frameLoop) {
      frameLoop = true;
      video.requestVideoFrameCallback(onFrame);
    }
  },
  stop(): void {
    conn?.close();
    conn = null;
  },
  /** Closes the tab's viewer the way a navigation away would (pagehide beacon path). */
  pagehide(): void {
    window.dispatchEvent(new PageTransitionEvent('pagehide'));
  },
  status: () => conn?.status ?? 'none',
  firstFrameMs: () => firstFrameMs,
  /** Wall-clock first presented frame after the join, and the first frame rendered after it began. */
  firstFrame: () => (firstPresented ? { joinMs, ...firstPresented, freshAtMs: firstFreshMs } : null),
  stats: async () => (conn?.pc ? readVideoStats(conn.pc) : null),
  /** The answer's video section (ours when the server offered, the server's otherwise). */
  videoAnswer(): string {
    const pc = conn?.pc;
    const answer = pc?.localDescription?.type === 'answer' ? pc.localDescription : pc?.remoteDescription;
    return answer?.sdp.split(/^(?=m=)/m).find((section) => section.startsWith('m=video')) ?? '';
  },
  /** The RTP header extensions negotiated for the video: the extmap lines of the answer's video section. */
  videoExtensions(): string[] {
    return [...api.videoAnswer().matchAll(/^a=extmap:\d+(?:\/\w+)? (\S+)/gm)].map((m) => m[1]!);
  },
  /** Current reel-area signature, for before/after comparisons. */
  reels(): number[] | null {
    const w = video.videoWidth;
    return w ? Array.from(reelSignature(video)) : null;
  },
  diff: (a: number[], b: number[]) => signatureMotion(Float32Array.from(a), Float32Array.from(b)),
  record(on: boolean): void {
    recording = on;
    if (on) {
      frames.length = 0;
      lastSig = null;
    }
  },
  frames: (): FrameRecord[] => frames.slice(),
  now,
};

declare global {
  interface Window {
    reel: typeof api;
  }
}
window.reel = api;
