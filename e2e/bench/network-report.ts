/** Figures, table and goals of the network bench (network.ts measures, this judges). */
import { pct } from './percentile.js';
import { ffmpegMismatch, type FfmpegUsed } from './bench-ffmpeg.js';
import type { InboundVideo } from '../video/inbound-video.js';

interface FrameRecord {
  atMs: number;
  renderedAtMs: number | null;
  /** rVFC `receiveTime` on the wall clock: the frame's last packet reached the browser. */
  receivedMs?: number | null;
}

export interface CaseResult {
  name: string;
  windowMs: number;
  frames: number;
  freezesPerMin: number;
  frozenMs: number;
  gapsOver200: number;
  fps: number;
  latencyP50: number;
  latencyP95: number;
  latencySamples: number;
  /** The latency split at the frame's arrival: render → receive (encode, forwarding, network) and receive → present (jitter buffer, decode, display). */
  split: { toReceiveP50: number; toReceiveP95: number; afterReceiveP50: number; afterReceiveP95: number };
  recoverMs: number | null;
  nacks: number;
  retransmitted: number;
  plis: number;
  packetsLost: number;
  dropped: number;
  /** The highest video loss fraction the media process reported for the viewer (what the server's band control steps on); null: none reported. */
  mediaLossMax?: number | null;
  /** The machine's 1-minute load average when the case started and ended: figures at a high load are noise (other work). */
  load?: { start: number; end: number };
  /** The jitter case: datagrams the relay carried each way (RTCP among those to the server); absent in the other cases. */
  relay?: { toBrowser: number; toServer: number; toServerRtcp: number };
}

const GAP_MS = 200;

export function summarise(
  name: string,
  windowMs: number,
  frames: FrameRecord[],
  before: InboundVideo,
  after: InboundVideo,
  dropped: number,
  blackoutEndMs: number | null,
): CaseResult {
  let gaps = 0;
  for (let i = 1; i < frames.length; i++) if (frames[i]!.atMs - frames[i - 1]!.atMs > GAP_MS) gaps++;
  const latency = frames.filter((f) => f.renderedAtMs !== null).map((f) => f.atMs - f.renderedAtMs!);
  const timed = frames.filter((f) => f.renderedAtMs !== null && typeof f.receivedMs === 'number');
  const toReceive = timed.map((f) => f.receivedMs! - f.renderedAtMs!);
  const afterReceive = timed.map((f) => f.atMs - f.receivedMs!);
  const minutes = windowMs / 60_000;
  let recoverMs: number | null = null;
  if (blackoutEndMs !== null) {
    // A moving picture again: the first presented frame the cabinet rendered after the blackout.
    const fresh = frames.find((f) => f.atMs >= blackoutEndMs && f.renderedAtMs !== null && f.renderedAtMs >= blackoutEndMs);
    recoverMs = fresh ? fresh.atMs - blackoutEndMs : Infinity;
  }
  return {
    name,
    windowMs,
    frames: frames.length,
    freezesPerMin: (after.freezeCount - before.freezeCount) / minutes,
    frozenMs: (after.totalFreezesDuration - before.totalFreezesDuration) * 1000,
    gapsOver200: gaps,
    fps: (after.framesDecoded - before.framesDecoded) / (windowMs / 1000),
    latencyP50: pct(latency, 50),
    latencyP95: pct(latency, 95),
    latencySamples: latency.length,
    split: {
      toReceiveP50: pct(toReceive, 50),
      toReceiveP95: pct(toReceive, 95),
      afterReceiveP50: pct(afterReceive, 50),
      afterReceiveP95: pct(afterReceive, 95),
    },
    recoverMs,
    nacks: after.nackCount - before.nackCount,
    retransmitted: after.retransmitted - before.retransmitted,
    plis: after.pliCount - before.pliCount,
    packetsLost: after.packetsLost - before.packetsLost,
    dropped,
  };
}

/** One backend's cases, and the ffmpeg its cabinet encoded with. */
type Column = { backend: string; ffmpeg: FfmpegUsed | null; results: CaseResult[] };

const ROWS: [string, (r: CaseResult) => string][] = [
  ['freezes / min (Chrome)', (r) => r.freezesPerMin.toFixed(2)],
  ['frozen ms (Chrome)', (r) => r.frozenMs.toFixed(0)],
  ['gaps > 200 ms (rVFC)', (r) => String(r.gapsOver200)],
  ['frames decoded / s', (r) => r.fps.toFixed(1)],
  ['render-to-present p50 ms', (r) => r.latencyP50.toFixed(0)],
  ['render-to-present p95 ms', (r) => r.latencyP95.toFixed(0)],
  ['  render → receive p50/p95 ms', (r) => `${r.split.toReceiveP50.toFixed(0)}/${r.split.toReceiveP95.toFixed(0)}`],
  ['  receive → present p50/p95 ms', (r) => `${r.split.afterReceiveP50.toFixed(0)}/${r.split.afterReceiveP95.toFixed(0)}`],
  ['blackout end to picture ms', (r) => (r.recoverMs === null ? '-' : r.recoverMs.toFixed(0))],
  ['NACKs sent / rtx received', (r) => `${r.nacks}/${r.retransmitted}`],
  ['PLIs sent', (r) => String(r.plis)],
  ['packets lost / rig dropped', (r) => `${r.packetsLost}/${r.dropped}`],
  ['loss seen by band control, max %', (r) => (r.mediaLossMax == null ? '-' : (r.mediaLossMax * 100).toFixed(1))],
  ['relay packets to browser / server', (r) => (r.relay ? `${r.relay.toBrowser}/${r.relay.toServer}` : '-')],
  ['N frames / latency samples', (r) => `${r.frames}/${r.latencySamples}`],
  ['load average start → end', (r) => (r.load ? `${r.load.start.toFixed(1)} → ${r.load.end.toFixed(1)}` : '-')],
];

export function printTable(columns: Column[]): void {
  const cases = columns[0]?.results.map((r) => r.name) ?? [];
  for (const name of cases) {
    console.log(`\n${name} (${((columns[0]!.results.find((r) => r.name === name)?.windowMs ?? 0) / 1000).toFixed(0)} s)`);
    const w0 = Math.max(...ROWS.map((r) => r[0].length));
    console.log(`${'figure'.padEnd(w0)} | ${columns.map((c) => c.backend.padEnd(12)).join(' | ')}`);
    for (const [label, f] of ROWS) {
      const cells = columns.map((c) => {
        const r = c.results.find((x) => x.name === name);
        return (r ? f(r) : 'n/a').padEnd(12);
      });
      console.log(`${label.padEnd(w0)} | ${cells.join(' | ')}`);
    }
  }
  // On a loaded machine freezes come from the load too: with a 0 % case in the same run, what the
  // loss itself costs is the difference (a reading aid, not a goal: the goal is the 2 % figure).
  for (const c of columns) {
    const [clean, lossy] = ['0% loss', '2% loss'].map((n) => c.results.find((r) => r.name === n));
    if (clean && lossy)
      console.log(`${c.backend}: freezes/min at 2 % loss ${lossy.freezesPerMin.toFixed(2)} − at 0 % ${clean.freezesPerMin.toFixed(2)} = ${(lossy.freezesPerMin - clean.freezesPerMin).toFixed(2)} from the loss`);
  }
}

/**
 * "Within 10 %" with a floor for figures near zero (0.2 vs 0.1 freezes a minute is noise, not a
 * doubling): werift may exceed Janus by 10 % or by the slack, whichever is larger.
 */
const COMPARED: { label: string; get: (r: CaseResult) => number | null; slack: number; higherIsBetter?: boolean }[] = [
  { label: 'freezes/min', get: (r) => r.freezesPerMin, slack: 0.5 },
  { label: 'frozen ms', get: (r) => r.frozenMs, slack: 100 },
  { label: 'gaps > 200 ms', get: (r) => r.gapsOver200, slack: 1 },
  { label: 'frames decoded/s', get: (r) => r.fps, slack: 1, higherIsBetter: true },
  { label: 'latency p50', get: (r) => r.latencyP50, slack: 5 },
  { label: 'latency p95', get: (r) => r.latencyP95, slack: 5 },
  { label: 'blackout recovery', get: (r) => r.recoverMs, slack: 50 },
];

export function evaluate(columns: Column[], minFrames: number): string[] {
  const missed: string[] = [];
  for (const c of columns)
    for (const r of c.results) {
      if (r.frames < minFrames) missed.push(`${c.backend} ${r.name}: ${r.frames} frames < ${minFrames} needed`);
      if (r.name === '2% loss') {
        if (!(r.freezesPerMin <= 1)) missed.push(`${c.backend} 2% loss: ${r.freezesPerMin.toFixed(2)} freezes/min > 1`);
        if (!(r.latencyP95 <= 120)) missed.push(`${c.backend} 2% loss: latency p95 ${r.latencyP95.toFixed(0)} ms > 120`);
      }
      // The jitter case has no goal of its own (the issue sets none; see docs/video.md), only the
      // comparison below, but it counts only if the media really crossed the relay both ways.
      if (r.relay && !(r.relay.toBrowser > 0 && r.relay.toServer > 0 && r.relay.toServerRtcp > 0))
        missed.push(`${c.backend} ${r.name}: the relay carried ${r.relay.toBrowser} packets to the browser, ${r.relay.toServer} to the server (${r.relay.toServerRtcp} RTCP): not through the relay`);
      if (r.recoverMs !== null && !(r.recoverMs <= 500))
        missed.push(`${c.backend} ${r.name}: picture back after ${r.recoverMs.toFixed(0)} ms > 500`);
    }
  const werift = columns.find((c) => c.backend === 'werift');
  const janus = columns.find((c) => c.backend === 'janus');
  if (!werift || !janus) return missed;
  // Different encoders side by side would compare the encoders, not the backends.
  const mismatch = ffmpegMismatch([werift, janus].map((c) => ({ name: c.backend, ffmpeg: c.ffmpeg })));
  if (mismatch) return [...missed, `werift vs Janus not compared: ${mismatch}`];
  for (const w of werift.results) {
    const j = janus.results.find((r) => r.name === w.name);
    if (!j) continue;
    for (const m of COMPARED) {
      const a = m.get(w);
      const b = m.get(j);
      if (a === null || b === null) continue;
      const ok = m.higherIsBetter ? a >= Math.min(b * 0.9, b - m.slack) : a <= Math.max(b * 1.1, b + m.slack);
      if (!ok) missed.push(`${w.name}: werift ${m.label} ${a.toFixed(1)} vs Janus ${b.toFixed(1)} (not within 10 %)`);
    }
  }
  return missed;
}
