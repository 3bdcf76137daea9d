/// <reference lib="dom" />
/**
 * Chrome's own account of how smoothly a page's live video plays, for tests and benchmarks that
 * drive a real page: the inbound video counters of every peer connection the page made (getStats
 * `inbound-rtp`: freezes, frames decoded, retransmissions …) and the gaps between the frames the
 * <video> presented (requestVideoFrameCallback).
 */
import type { Page } from '@playwright/test';

/** Init script: keeps every RTCPeerConnection the page makes, so its full getStats can be read. */
export const CAPTURE_PEER_CONNECTIONS = `(() => {
  const Native = window.RTCPeerConnection;
  window.__pcs = [];
  window.RTCPeerConnection = function (...args) { const pc = new Native(...args); window.__pcs.push(pc); return pc; };
  window.RTCPeerConnection.prototype = Native.prototype;
})();`;

/** Cumulative inbound video counters, summed over the page's peer connections. */
export interface InboundVideo {
  freezeCount: number;
  /** Seconds. */
  totalFreezesDuration: number;
  framesDecoded: number;
  framesDropped: number;
  keyFramesDecoded: number;
  nackCount: number;
  pliCount: number;
  retransmitted: number;
  packetsLost: number;
}

export async function readInboundVideo(page: Page): Promise<InboundVideo> {
  return page.evaluate(async () => {
    // A reconnect replaces the peer connection: keep each one's last figures so the sums only grow.
    const w = window as unknown as { __pcs?: RTCPeerConnection[]; __lastInbound?: Map<RTCPeerConnection, Record<string, number>> };
    const last = (w.__lastInbound ??= new Map());
    const out = {
      freezeCount: 0,
      totalFreezesDuration: 0,
      framesDecoded: 0,
      framesDropped: 0,
      keyFramesDecoded: 0,
      nackCount: 0,
      pliCount: 0,
      retransmitted: 0,
      packetsLost: 0,
    };
    for (const pc of w.__pcs ?? []) {
      if (pc.connectionState !== 'closed') {
        const report = await pc.getStats();
        report.forEach((s: Record<string, unknown>) => {
          if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
          last.set(pc, {
            freezeCount: Number(s.freezeCount ?? 0),
            totalFreezesDuration: Number(s.totalFreezesDuration ?? 0),
            framesDecoded: Number(s.framesDecoded ?? 0),
            framesDropped: Number(s.framesDropped ?? 0),
            keyFramesDecoded: Number(s.keyFramesDecoded ?? 0),
            nackCount: Number(s.nackCount ?? 0),
            pliCount: Number(s.pliCount ?? 0),
            retransmitted: Number(s.retransmittedPacketsReceived ?? 0),
            packetsLost: Number(s.packetsLost ?? 0),
          });
        });
      }
      const figures = last.get(pc);
      if (figures) for (const k of Object.keys(out) as (keyof typeof out)[]) out[k] += figures[k] ?? 0;
    }
    return out;
  });
}

/**
 * Starts timing every frame the page's `<video>` (`selector`) presents; `presentedFrameTimes`
 * returns the times (page clock, ms) since then (a second call starts over). The element is
 * looked up again when the page replaces it.
 */
export async function recordPresentedFrames(page: Page, selector: string): Promise<void> {
  // Source text, not a function: a bench run by tsx would hand the page its `__name` helpers.
  await page.evaluate(`(() => {
    window.__presented = [];
    if (window.__presentedWatch) return;
    window.__presentedWatch = true;
    let watched = null;
    const onFrame = (video) => (now) => {
      window.__presented.push(now);
      if (video === watched) video.requestVideoFrameCallback(onFrame(video));
    };
    const watch = () => {
      const video = document.querySelector(${JSON.stringify(selector)});
      if (video && video !== watched) {
        watched = video;
        video.requestVideoFrameCallback(onFrame(video));
      }
    };
    watch();
    setInterval(watch, 100);
  })()`);
}

export async function presentedFrameTimes(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __presented?: number[] }).__presented ?? []);
}

/** A gap between presented frames longer than this is one a player notices. */
const NOTICEABLE_GAP_MS = 200;

export interface Smoothness {
  windowS: number;
  freezes: number;
  freezesPerMin: number;
  frozenMsPerMin: number;
  decodedFps: number;
  framesDropped: number;
  keyframes: number;
  plis: number;
  nacks: number;
  packetsLost: number;
  /** Gaps > NOTICEABLE_GAP_MS between presented frames, ms each. */
  gaps: number[];
}

export function smoothness(before: InboundVideo, after: InboundVideo, presented: number[], windowMs: number): Smoothness {
  const minutes = windowMs / 60_000;
  const gaps: number[] = [];
  for (let i = 1; i < presented.length; i++) {
    const gap = presented[i]! - presented[i - 1]!;
    if (gap > NOTICEABLE_GAP_MS) gaps.push(Math.round(gap));
  }
  const freezes = after.freezeCount - before.freezeCount;
  return {
    windowS: windowMs / 1000,
    freezes,
    freezesPerMin: freezes / minutes,
    frozenMsPerMin: ((after.totalFreezesDuration - before.totalFreezesDuration) * 1000) / minutes,
    decodedFps: (after.framesDecoded - before.framesDecoded) / (windowMs / 1000),
    framesDropped: after.framesDropped - before.framesDropped,
    keyframes: after.keyFramesDecoded - before.keyFramesDecoded,
    plis: after.pliCount - before.pliCount,
    nacks: after.nackCount - before.nackCount,
    packetsLost: after.packetsLost - before.packetsLost,
    gaps,
  };
}

/** One line: the figures of the table and the counters that explain them. */
export function describeSmoothness(s: Smoothness): string {
  const gapRange = s.gaps.length ? ` (${Math.min(...s.gaps)}–${Math.max(...s.gaps)} ms)` : '';
  return (
    `${s.windowS.toFixed(0)} s: ${s.freezes} freezes (${s.freezesPerMin.toFixed(1)}/min, ${s.frozenMsPerMin.toFixed(0)} ms frozen/min), ` +
    `${s.decodedFps.toFixed(1)} frames decoded/s, ${s.gaps.length} gaps > ${NOTICEABLE_GAP_MS} ms${gapRange}; ` +
    `${s.keyframes} keyframes, ${s.framesDropped} frames dropped, ${s.plis} PLIs, ${s.nacks} NACKs, ${s.packetsLost} packets lost`
  );
}
