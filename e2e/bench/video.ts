/**
 * Live video benchmark: `tsx e2e/bench/video.ts` (the root bench script calls it).
 * Glass-to-glass latency from the timestamp strip, offer-to-first-frame over 20 joins, spin
 * command to first moving frame, and CPU per machine of cabinet, encoder and media, with 4
 * machines streaming. Runs the werift forwarder, then Janus when installed.
 */
import { existsSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import type { MediaBackend } from '@reel/protocol';
import { startHarness } from '../video/harness.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';
import { childrenOf, sampleCpu } from './proc-cpu.js';

const MACHINES = [1, 2, 3, 4];
const JOINS = Number(process.env.BENCH_JOINS ?? 20);
const SPINS = Number(process.env.BENCH_SPINS ?? 12);
const G2G_WINDOW_MS = 8000;
const MOTION_THRESHOLD = 6;

interface Result {
  backend: string;
  g2g: number[];
  firstFrame: number[];
  spinToMotion: number[];
  cpu: Record<string, number>;
  notes: string[];
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFirstFrame(page: Page, timeoutMs = 5000): Promise<number | null> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    const ms = await page.evaluate(() => window.reel.firstFrameMs());
    if (ms !== null) return ms;
    await sleep(20);
  }
  return null;
}

async function run(backend: MediaBackend): Promise<Result> {
  const notes: string[] = [];
  const h = await startHarness({ machineIds: MACHINES, timestampStrip: true, backend, log: () => {} });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await h.waitStreaming(MACHINES, 30_000);
    const page = await browser.newPage();
    await page.goto(`${h.baseUrl}/video-test.html`);

    // Offer to first decoded frame, over repeated joins of machine 1.
    const firstFrame: number[] = [];
    for (let i = 0; i < JOINS; i++) {
      await page.evaluate(() => window.reel.start(1));
      const ms = await waitFirstFrame(page);
      if (ms === null) notes.push(`join ${i + 1}: no frame within 5 s`);
      else firstFrame.push(ms);
      await page.evaluate(() => window.reel.stop());
      await sleep(150 + Math.random() * 300);
    }

    // Glass-to-glass while all machines stream, and CPU in the same window.
    await page.evaluate(() => window.reel.start(1));
    await waitFirstFrame(page);
    await sleep(1500);
    const ffmpegs = childrenOf(h.cabinet.pid!, 'ffmpeg');
    await page.evaluate(() => window.reel.record(true));
    const cpu = await sampleCpu(
      {
        cabinet: [h.cabinet.pid!],
        encoder: ffmpegs,
        media: h.media.supervisor.pid ? [h.media.supervisor.pid] : [],
        chromium: [],
      },
      G2G_WINDOW_MS,
    );
    const frames = await page.evaluate(() => window.reel.frames());
    const g2g = frames.filter((f) => f.renderedAtMs !== null).map((f) => f.atMs - f.renderedAtMs!);
    const unreadable = frames.length - g2g.length;
    if (unreadable > frames.length * 0.1)
      notes.push(`${unreadable}/${frames.length} frames had an unreadable strip`);
    const perMachine = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, v / MACHINES.length]));
    delete perMachine.chromium;
    if (ffmpegs.length !== MACHINES.length)
      notes.push(`found ${ffmpegs.length} ffmpeg processes for ${MACHINES.length} machines`);

    // Spin command to the first frame in which the reels move.
    await h.command(1, { type: 'credit_in', amountCents: 100_000 });
    const spinToMotion: number[] = [];
    const spinG2g: number[] = [];
    const statsBefore = await page.evaluate(() => window.reel.stats());
    for (let i = 0; i < SPINS; i++) {
      await sleep(400);
      await page.evaluate(() => window.reel.record(true));
      await sleep(250);
      const sentAt = Date.now();
      const done = h.command(1, { type: 'spin' });
      await sleep(600);
      const rec = await page.evaluate(() => window.reel.frames());
      const after = rec.filter((f) => f.atMs >= sentAt);
      for (const f of after) if (f.renderedAtMs !== null) spinG2g.push(f.atMs - f.renderedAtMs);
      // If the picture was still moving before the command, the video lags (an overloaded
      // machine) and the sample would measure the previous spin: leave it out, say so.
      const settled = rec.filter((f) => f.atMs < sentAt).slice(-3);
      if (settled.length < 3 || settled.some((f) => f.motion > MOTION_THRESHOLD)) {
        notes.push(`spin ${i + 1}: reels not still before the command (video lagging); sample dropped`);
        await done;
        continue;
      }
      // Moving reels change every frame; a win-line step changes one frame. Need 3 in a row.
      let hit: number | null = null;
      for (let k = 0; k + 2 < after.length; k++) {
        if (
          after[k]!.motion > MOTION_THRESHOLD &&
          after[k + 1]!.motion > MOTION_THRESHOLD &&
          after[k + 2]!.motion > MOTION_THRESHOLD
        ) {
          hit = after[k]!.atMs - sentAt;
          break;
        }
      }
      const result = await done;
      if (hit === null)
        notes.push(
          `spin ${i + 1}: no motion seen (${result.outcome}${result.reason ? ` ${result.reason}` : ''}; ${after.length} frames, motion ${after.map((f) => f.motion.toFixed(0)).join(' ')})`,
        );
      else spinToMotion.push(hit);
      // Let a free-spin bonus finish before the next paid spin.
      while (h.hub.get(1)?.state === 'in_bonus') await sleep(200);
    }
    const statsAfter = await page.evaluate(() => window.reel.stats());
    await page.evaluate(() => window.reel.stop());
    notes.push(
      `glass-to-glass while spinning p50/p95: ${pct(spinG2g, 50).toFixed(0)}/${pct(spinG2g, 95).toFixed(0)} ms; ` +
        `video packets lost ${(statsAfter?.videoPacketsLost ?? 0) - (statsBefore?.videoPacketsLost ?? 0)}, ` +
        `jitter buffer ${statsBefore?.jitterBufferDelayMs.toFixed(0)} -> ${statsAfter?.jitterBufferDelayMs.toFixed(0)} ms (mean), ` +
        `frames dropped ${(statsAfter?.framesDropped ?? 0) - (statsBefore?.framesDropped ?? 0)}`,
    );
    notes.push(`spin to motion samples (ms): ${spinToMotion.map((x) => x.toFixed(0)).join(', ')}`);
    notes.push(`first frame samples (ms): ${firstFrame.map((x) => x.toFixed(0)).join(', ')}`);
    return { backend, g2g, firstFrame, spinToMotion, cpu: perMachine, notes };
  } finally {
    await browser.close().catch(() => {});
    await h.stop();
  }
}

function table(results: Result[]): string {
  const rows: [string, string, (r: Result) => string][] = [
    ['glass-to-glass p50', '≤ 50 ms', (r) => `${pct(r.g2g, 50).toFixed(0)} ms`],
    ['glass-to-glass p95', '≤ 80 ms', (r) => `${pct(r.g2g, 95).toFixed(0)} ms`],
    ['  frames measured', '', (r) => String(r.g2g.length)],
    [`first frame p50 (${JOINS} joins)`, '≤ 400 ms', (r) => `${pct(r.firstFrame, 50).toFixed(0)} ms`],
    ['first frame p95', '', (r) => `${pct(r.firstFrame, 95).toFixed(0)} ms`],
    ['spin to motion p50', '', (r) => `${pct(r.spinToMotion, 50).toFixed(0)} ms`],
    ['spin to motion p95', '≤ 120 ms', (r) => `${pct(r.spinToMotion, 95).toFixed(0)} ms`],
    ['CPU cabinet / machine', '', (r) => `${r.cpu.cabinet?.toFixed(1)} %`],
    ['CPU encoder / machine', '', (r) => `${r.cpu.encoder?.toFixed(1)} %`],
    ['CPU media / machine', '', (r) => `${r.cpu.media?.toFixed(1)} %`],
  ];
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const header = `${'metric'.padEnd(w0)} | ${'goal'.padEnd(9)} | ${results.map((r) => r.backend.padEnd(10)).join(' | ')}`;
  const lines = rows.map(
    ([name, goal, f]) =>
      `${name.padEnd(w0)} | ${goal.padEnd(9)} | ${results.map((r) => f(r).padEnd(10)).join(' | ')}`,
  );
  return [header, '-'.repeat(header.length), ...lines].join('\n');
}

const results: Result[] = [];
console.log(
  `video bench: ${MACHINES.length} machines streaming 640x360@30 VP8 + Opus, Chromium ${CHROMIUM_PATH}`,
);
const backends = (process.env.BENCH_BACKENDS ?? 'werift,janus').split(',');
if (backends.includes('werift')) results.push(await run('werift'));
if (!backends.includes('janus')) console.log('janus: not requested (BENCH_BACKENDS)');
else if (existsSync(process.env.JANUS_BIN ?? '/usr/bin/janus')) {
  console.log('janus: installed, running the same measurements through the Janus streaming plugin');
  try {
    results.push(await run('janus'));
  } catch (err) {
    console.log(`janus run failed: ${String(err)}`);
  }
} else console.log('janus: not installed (/usr/bin/janus), skipping the Janus column');
console.log('');
console.log(table(results));
for (const r of results) for (const n of r.notes) console.log(`note (${r.backend}): ${n}`);
console.log(
  'CPU is percent of one core per machine (4 machines streaming; the cabinet process renders all of them).',
);
process.exit(0);
