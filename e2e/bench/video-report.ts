/**
 * The video bench's report: the figures a run collects, the goals, the table (one column per
 * backend) and the scale path's comparison with werift. `e2e/bench/video.ts` runs the measurements.
 */
import type { Verdict } from '@reel/process';
import { pct } from './percentile.js';
import { describeFfmpeg, type FfmpegUsed } from './bench-ffmpeg.js';

const MIN = { renderToPresent: 200, joins: 10, spins: 10 };
const GOAL = {
  r2pP50: { max: 50, unit: 'ms' },
  r2pP95: { max: 80, unit: 'ms' },
  firstFrameP50: { max: 400, unit: 'ms' },
  spinP95: { max: 120, unit: 'ms' },
};

export const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : 'missing');

export interface Latency {
  total: number[];
  toReceive: number[];
  toDecoded: number[];
  toDisplay: number[];
  decode: number[];
  frames: number;
}

export interface Joins {
  /** Join start → first frame rendered after the join began (a live picture); timeouts count as the timeout. */
  live: number[];
  /** Join start → first picture of any age (a forwarder's cached keyframe counts). */
  picture: number[];
  /** How old the first picture was when shown (shown − rendered), ms. */
  pictureAge: number[];
  timedOut: number;
}

export interface Result {
  backend: string;
  /** What the run's cabinet said it encoded with. */
  ffmpeg: FfmpegUsed | null;
  spinning: Latency;
  attract: Latency;
  warmJoins: Joins;
  coldJoins: Joins;
  spinToMotion: number[];
  spinsDropped: number;
  cpuAttract: Record<string, number>;
  cpuSpinning: Record<string, number>;
  viewers: ViewerCost;
  notes: string[];
}

export interface ViewerCost {
  requested: number;
  connected: number;
  /** Media tree CPU (% of one core) with no viewer, and with the connected viewers. */
  cpuNone: number;
  cpuWith: number;
  /** RTP packets per second each viewer received during the window (mean). */
  packetsPerViewerS: number;
}

/** What the table needs to know of the run. */
interface ReportConfig {
  machines: number;
  viewers: number;
  joinTimeoutMs: number;
}

type Row = [string, string, (r: Result, v: Verdict) => string];

function rows(c: ReportConfig): Row[] {
  const check = (name: string, value: number, goal: { max: number; unit: string }, r: Result, v: Verdict) => {
    const text = v.check(`${r.backend}: ${name}`, value, goal);
    return `${ms(value)}${text.includes('MISSED') ? ' MISSED' : ''}`;
  };
  const perMachine = (x: number | undefined) => (x === undefined ? 'missing' : `${(x / c.machines).toFixed(1)} %`);
  const total = (x: number | undefined) => (x === undefined ? 'missing' : `${x.toFixed(1)} %`);
  return [
    ['ffmpeg the cabinet ran', '', (r) => describeFfmpeg(r.ffmpeg)],
    ['render-to-present while spinning p50', '≤ 50 ms', (r, v) => check('render-to-present while spinning p50', pct(r.spinning.total, 50), GOAL.r2pP50, r, v)],
    ['render-to-present while spinning p95', '≤ 80 ms', (r, v) => check('render-to-present while spinning p95', pct(r.spinning.total, 95), GOAL.r2pP95, r, v)],
    ['  frames', `≥ ${MIN.renderToPresent}`, (r, v) => v.samples(`${r.backend}: render-to-present while spinning`, r.spinning.total.length, MIN.renderToPresent, r.spinning.frames - r.spinning.total.length)],
    ['render-to-present attract mode p50 / p95', '', (r) => `${ms(pct(r.attract.total, 50))} / ${ms(pct(r.attract.total, 95))}`],
    ['  frames', `≥ ${MIN.renderToPresent}`, (r, v) => v.samples(`${r.backend}: render-to-present attract mode`, r.attract.total.length, MIN.renderToPresent, r.attract.frames - r.attract.total.length)],
    ['join → first live frame, warm stream p50', '≤ 400 ms', (r, v) => check('first live frame warm p50', pct(r.warmJoins.live, 50), GOAL.firstFrameP50, r, v)],
    ['join → first live frame, warm stream p95', '', (r) => ms(pct(r.warmJoins.live, 95))],
    [`  joins (a timeout counts as ${c.joinTimeoutMs} ms)`, `≥ ${MIN.joins}`, (r, v) => `${v.samples(`${r.backend}: first frame warm`, r.warmJoins.live.length, MIN.joins)}${r.warmJoins.timedOut ? `, ${r.warmJoins.timedOut} timed out` : ''}`],
    ['join → first live frame, cold stream p50', '≤ 400 ms', (r, v) => check('first live frame cold p50', pct(r.coldJoins.live, 50), GOAL.firstFrameP50, r, v)],
    ['join → first live frame, cold stream p95', '', (r) => ms(pct(r.coldJoins.live, 95))],
    [`  joins (a timeout counts as ${c.joinTimeoutMs} ms)`, `≥ ${MIN.joins}`, (r, v) => `${v.samples(`${r.backend}: first frame cold`, r.coldJoins.live.length, MIN.joins)}${r.coldJoins.timedOut ? `, ${r.coldJoins.timedOut} timed out` : ''}`],
    ['spin to motion p50', '', (r) => ms(pct(r.spinToMotion, 50))],
    ['spin to motion p95', '≤ 120 ms', (r, v) => check('spin to motion p95', pct(r.spinToMotion, 95), GOAL.spinP95, r, v)],
    ['  spins', `≥ ${MIN.spins}`, (r, v) => v.samples(`${r.backend}: spin to motion`, r.spinToMotion.length, MIN.spins, r.spinsDropped)],
    ['CPU cabinet+ffmpeg / machine, attract', '', (r) => perMachine(r.cpuAttract.cabinet)],
    ['  of which ffmpeg encoders', '', (r) => perMachine(r.cpuAttract.encoder)],
    ['CPU media tree / machine, attract', '', (r) => perMachine(r.cpuAttract.media)],
    ['CPU Chromium tree, 1 viewer, attract', '', (r) => total(r.cpuAttract.chromium)],
    ['CPU cabinet+ffmpeg / machine, spinning', '', (r) => perMachine(r.cpuSpinning.cabinet)],
    ['CPU media tree / machine, spinning', '', (r) => perMachine(r.cpuSpinning.media)],
    ['CPU Chromium tree, 1 viewer, spinning', '', (r) => total(r.cpuSpinning.chromium)],
    [`media tree CPU per viewer (${c.viewers} non-decoding viewers of 1 stream)`, '', (r, v) => {
      const per = (r.viewers.cpuWith - r.viewers.cpuNone) / r.viewers.connected;
      if (!Number.isFinite(per)) v.missing(`${r.backend}: media CPU per viewer`, `${r.viewers.connected} viewers connected`);
      return Number.isFinite(per) ? `${per.toFixed(2)} % (${r.viewers.cpuNone.toFixed(1)} → ${r.viewers.cpuWith.toFixed(1)} %)` : 'missing';
    }],
    ['  viewers receiving', `${c.viewers}`, (r, v) => `${v.samples(`${r.backend}: viewers receiving RTP`, r.viewers.connected, r.viewers.requested)}, ${r.viewers.packetsPerViewerS.toFixed(0)} pkt/s each`],
  ];
}

export function table(results: Result[], verdict: Verdict, c: ReportConfig): string {
  const all = rows(c);
  const cells = all.map(([, , f]) => results.map((r) => f(r, verdict)));
  const w0 = Math.max(...all.map((r) => r[0].length));
  const w1 = Math.max(4, ...all.map((r) => r[1].length));
  const wc = results.map((_, i) => Math.max(results[i]!.backend.length, ...cells.map((c) => c[i]!.length)));
  const header = `${'metric'.padEnd(w0)} | ${'goal'.padEnd(w1)} | ${results.map((r, i) => r.backend.padEnd(wc[i]!)).join(' | ')}`;
  const lines = all.map(
    ([name, goal], k) => `${name.padEnd(w0)} | ${goal.padEnd(w1)} | ${cells[k]!.map((c, i) => c.padEnd(wc[i]!)).join(' | ')}`,
  );
  return [header, '-'.repeat(header.length), ...lines].join('\n');
}

/**
 * The scale path within 10 % of werift (issue 24): warm join → first live frame and render-to-present
 * while spinning, p50 and p95, with a 5 ms floor for figures of a few milliseconds (as the network
 * bench's comparison).
 */
export function compareScalePath(results: Result[], verdict: Verdict): void {
  const werift = results.find((r) => r.backend === 'werift');
  const janus = results.find((r) => r.backend === 'janus');
  if (!werift || !janus) return;
  const figures: [string, (r: Result) => number][] = [
    ['warm join → first live frame p50', (r) => pct(r.warmJoins.live, 50)],
    ['warm join → first live frame p95', (r) => pct(r.warmJoins.live, 95)],
    ['render-to-present while spinning p50', (r) => pct(r.spinning.total, 50)],
    ['render-to-present while spinning p95', (r) => pct(r.spinning.total, 95)],
  ];
  for (const [name, get] of figures) {
    const w = get(werift);
    const limit = Math.max(w * 1.1, w + 5);
    const label = `janus within 10 % of werift: ${name} (werift ${ms(w)})`;
    console.log(`${label}: janus ${verdict.check(label, get(janus), { max: Math.round(limit), unit: 'ms' })}`);
  }
}
