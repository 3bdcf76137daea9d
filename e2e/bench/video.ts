/**
 * Live video benchmark: `tsx e2e/bench/video.ts` (the root bench script calls it).
 * Everything runs on this one machine over loopback, so the figures are render-to-present (the
 * cabinet's render to the frame's expected display in Chromium), never glass-to-glass: no camera,
 * no display, no network between them.
 *  - render-to-present from the timestamp strip, headline while the measured machine spins (goal
 *    applies there), secondary while all machines sit in attract mode, split by the
 *    requestVideoFrameCallback metadata into render→receive, receive→decoded, decoded→display;
 *  - join → first presented frame on warm streams (kept streaming, as the product's WARM_STREAMS)
 *    and on cold ones (the stream starts with the join, as the product's grant does);
 *  - spin command → first moving frame;
 *  - CPU of whole process trees: cabinet (node + ffmpeg encoders), media backend (werift's node
 *    process; Janus' node adapter + janus), and Chromium (browser, renderer, GPU, utility processes).
 * Runs the werift forwarder, then Janus when requested. Every goal and sample minimum goes through a
 * Verdict: the process exits 1 on a miss, a NaN figure, or a requested backend that did not run.
 */
import { existsSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import type { MediaBackend } from '@reel/protocol';
import { Verdict } from '@reel/process';
import { startHarness, type Harness } from '../video/harness.js';
import { attachWhepViewer } from '../video/whep-viewer.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.js';
import { childrenOf, processTree, startCpuSampler, type CpuGroups } from './proc-cpu.js';
import { pct } from './percentile.js';
import type { FrameRecord } from '../video/page/video-page.js';
import { benchFfmpeg, describeFfmpeg, ffmpegMismatch, ffmpegOfCabinet, type FfmpegUsed } from './bench-ffmpeg.js';
import { compareScalePath, ms, table, type Joins, type Latency, type Result, type ViewerCost } from './video-report.js';
import { chooseJanus, describeJanus } from '../../apps/media/src/janus/janus-install.js';

/**
 * The product keeps the first `media.warmStreams` machines streaming (WARM_STREAMS, default 4, see
 * apps/server/src/config.ts and apps/server/src/modules/media/video-port.ts); any other machine's
 * stream starts when a player's grant is asked for and stops when nobody holds it. The benchmark
 * streams that many warm machines and adds cold ones that stream only while joined.
 */
const WARM = Number(process.env.WARM_STREAMS ?? 4);
const COLD_COUNT = Number(process.env.BENCH_COLD_MACHINES ?? 2);
const MACHINES = Array.from({ length: WARM }, (_, i) => i + 1);
const COLD_MACHINES = Array.from({ length: COLD_COUNT }, (_, i) => WARM + i + 1);
const JOINS = Number(process.env.BENCH_JOINS ?? 20);
const COLD_JOINS = Number(process.env.BENCH_COLD_JOINS ?? 12);
const SPINS = Number(process.env.BENCH_SPINS ?? 14);
const ATTRACT_WINDOW_MS = 8000;
/** Frames presented this long after each spin command count as "while spinning". */
const SPIN_WINDOW_MS = 1500;
/** A spin whose reels are not seen moving within this counts as this long (not dropped). */
const MOTION_WINDOW_MS = 1000;
const JOIN_TIMEOUT_MS = 5000;
/** Non-decoding WHEP viewers attached to machine 1 to price a viewer in media-process CPU. */
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 8);
const VIEWER_WINDOW_MS = 6000;
const MOTION_THRESHOLD = 6;






/** A non-decoding viewer of a machine (e2e/video/whep-viewer.ts) with a grant issued here. */
async function attachViewer(h: Harness, machineId: number, playerId: number) {
  const grant = h.media.issueGrant(playerId, machineId);
  return attachWhepViewer(new URL(grant.whepUrl, h.baseUrl).toString(), grant.grant);
}

/** Media-process CPU with no viewer, then with VIEWERS non-decoding viewers of machine 1. */
async function viewerCost(h: Harness, media: CpuGroups, notes: string[]): Promise<ViewerCost> {
  const cpuNone = startCpuSampler(media);
  await sleep(VIEWER_WINDOW_MS);
  const none = cpuNone.stop().media ?? NaN;
  const viewers: Awaited<ReturnType<typeof attachViewer>>[] = [];
  try {
    for (let i = 0; i < VIEWERS; i++) {
      try {
        viewers.push(await attachViewer(h, MACHINES[0]!, 10_000 + i));
      } catch (err) {
        notes.push(`viewer ${i + 1}: did not attach (${String(err)})`);
      }
    }
    await sleep(3000);
    const live = viewers.filter((v) => v.counter.packets > 0);
    if (live.length < viewers.length) notes.push(`${viewers.length - live.length} attached viewers received no RTP`);
    for (const v of viewers) v.counter.packets = 0;
    const cpuWith = startCpuSampler(media);
    await sleep(VIEWER_WINDOW_MS);
    const withViewers = cpuWith.stop().media ?? NaN;
    const packets = live.reduce((a, v) => a + v.counter.packets, 0);
    return {
      requested: VIEWERS,
      connected: live.length,
      cpuNone: none,
      cpuWith: withViewers,
      packetsPerViewerS: live.length ? packets / live.length / (VIEWER_WINDOW_MS / 1000) : NaN,
    };
  } finally {
    for (const v of viewers) await v.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A strip misread by a bit decodes to a far-off time: ages outside -1 s .. 10 min count as unreadable. */
const plausible = (renderedAtMs: number, atMs: number) => atMs - renderedAtMs > -1000 && atMs - renderedAtMs < 600_000;

/** Render-to-present of frames with a readable strip, and its split from the rVFC metadata. */
function latency(frames: FrameRecord[]): Latency {
  const out: Latency = { total: [], toReceive: [], toDecoded: [], toDisplay: [], decode: [], frames: frames.length };
  for (const f of frames) {
    if (f.renderedAtMs === null || !plausible(f.renderedAtMs, f.atMs)) continue;
    out.total.push(f.expectedDisplayMs - f.renderedAtMs);
    out.toDisplay.push(f.expectedDisplayMs - f.presentedMs);
    if (f.receivedMs !== null) {
      out.toReceive.push(f.receivedMs - f.renderedAtMs);
      out.toDecoded.push(f.presentedMs - f.receivedMs);
    }
    if (f.processingMs !== null) out.decode.push(f.processingMs);
  }
  return out;
}

const split = (l: Latency) =>
  `render→receive p50/p95 ${ms(pct(l.toReceive, 50))}/${ms(pct(l.toReceive, 95))}` +
  ` (${l.toReceive.length} frames with receiveTime), receive→decoded ${ms(pct(l.toDecoded, 50))}/${ms(pct(l.toDecoded, 95))}` +
  ` (of which decode ${ms(pct(l.decode, 50))}/${ms(pct(l.decode, 95))}), decoded→expected display ${ms(pct(l.toDisplay, 50))}/${ms(pct(l.toDisplay, 95))}`;


const noJoins = (): Joins => ({ live: [], picture: [], pictureAge: [], timedOut: 0 });

/** One join of `machineId` started at `t0` (wall clock), recorded into `into`. */
async function join(page: Page, machineId: number, t0: number, into: Joins, notes: string[], label: string) {
  await page.evaluate(({ id, t }) => window.reel.start(id, t), { id: machineId, t: t0 });
  const deadline = Date.now() + JOIN_TIMEOUT_MS;
  let first: Awaited<ReturnType<typeof window.reel.firstFrame>> = null;
  while (Date.now() < deadline) {
    first = await page.evaluate(() => window.reel.firstFrame());
    if (first?.freshAtMs != null) break;
    await sleep(20);
  }
  if (first) {
    into.picture.push(first.atMs - t0);
    if (first.renderedAtMs !== null && plausible(first.renderedAtMs, first.atMs)) into.pictureAge.push(first.atMs - first.renderedAtMs);
  }
  if (first?.freshAtMs != null) into.live.push(first.freshAtMs - t0);
  else {
    into.live.push(JOIN_TIMEOUT_MS);
    into.timedOut++;
    notes.push(`${label}: no live frame within ${JOIN_TIMEOUT_MS} ms (${first ? `a picture rendered ${first.renderedAtMs === null ? '?' : (t0 - first.renderedAtMs).toFixed(0)} ms before the join was shown` : 'no picture at all'}); counted as ${JOIN_TIMEOUT_MS} ms`);
  }
}

async function run(backend: MediaBackend, ffmpeg: FfmpegUsed | null): Promise<Result> {
  const notes: string[] = [];
  const h: Harness = await startHarness({
    machineIds: [...MACHINES, ...COLD_MACHINES],
    timestampStrip: true,
    backend,
    ...(ffmpeg ? { ffmpeg: ffmpeg.path } : {}),
    log: () => {},
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await h.waitStreaming([...MACHINES, ...COLD_MACHINES], 30_000);
    // The harness streams every machine; the cold ones stop, as the product's idle sweep does.
    for (const id of COLD_MACHINES) await h.command(id, { type: 'stream_stop' });
    const page = await browser.newPage();
    await page.goto(`${h.baseUrl}/video-test.html`);

    // Join → first frame on a warm stream (machine 1), from the join's start (grant request) to the
    // first presented frame rendered after it. A join with no frame counts as the timeout.
    const warmJoins = noJoins();
    for (let i = 0; i < JOINS; i++) {
      await join(page, MACHINES[0]!, Date.now(), warmJoins, notes, `warm join ${i + 1}`);
      await page.evaluate(() => window.reel.stop());
      await sleep(150 + Math.random() * 300);
    }

    // Cold joins: the join starts the machine's stream first (what the product's grant does for a
    // machine beyond WARM_STREAMS), then the page connects.
    const coldJoins = noJoins();
    for (let i = 0; i < COLD_JOINS && COLD_MACHINES.length; i++) {
      const id = COLD_MACHINES[i % COLD_MACHINES.length]!;
      await sleep(500 + Math.random() * 300);
      const t0 = Date.now();
      try {
        await h.media.startMachineStream(h.hub, id, { timestampStrip: true });
      } catch (err) {
        notes.push(`cold join ${i + 1} (machine ${id}): the stream did not start (${String(err)}); counted as ${JOIN_TIMEOUT_MS} ms`);
        coldJoins.live.push(JOIN_TIMEOUT_MS);
        coldJoins.timedOut++;
        continue;
      }
      await join(page, id, t0, coldJoins, notes, `cold join ${i + 1} (machine ${id})`);
      await page.evaluate(() => window.reel.stop());
      await h.command(id, { type: 'stream_stop' });
    }

    const groups: CpuGroups = {
      // The cabinet process renders every machine; its ffmpeg children encode them.
      cabinet: () => processTree(h.cabinet.pid),
      encoder: () => processTree(h.cabinet.pid, /^ffmpeg/).filter((p) => p !== h.cabinet.pid),
      // werift: the media node process. Janus: the node adapter and its janus child.
      media: () => processTree(h.media.supervisor.pid),
      // Chromium is launched by this process: its browser process and every child of it.
      chromium: () => childrenOf(process.pid, /chrom/i).flatMap((p) => processTree(p)),
    };
    if (groups.chromium!().length === 0) notes.push('no Chromium process found under this process: browser CPU reads 0');

    // Attract mode: all machines streaming, nobody spinning (secondary figure), and CPU.
    await join(page, MACHINES[0]!, Date.now(), noJoins(), notes, 'attract window join');
    await sleep(1500);
    await page.evaluate(() => window.reel.record(true));
    const attractCpu = startCpuSampler(groups);
    await sleep(ATTRACT_WINDOW_MS);
    const cpuAttract = attractCpu.stop();
    const attract = latency(await page.evaluate(() => window.reel.frames()));
    const encoders = groups.encoder!().length;
    if (encoders !== MACHINES.length)
      notes.push(`found ${encoders} ffmpeg processes for ${MACHINES.length} streaming machines`);

    // Spin command → first moving frame, and render-to-present while spinning (the headline).
    await h.command(MACHINES[0]!, { type: 'credit_in', amountCents: 100_000 });
    const spinToMotion: number[] = [];
    let spinsDropped = 0;
    const spinFrames: FrameRecord[] = [];
    const statsBefore = await page.evaluate(() => window.reel.stats());
    const spinCpu = startCpuSampler(groups);
    for (let i = 0; i < SPINS; i++) {
      await sleep(400);
      await page.evaluate(() => window.reel.record(true));
      await sleep(250);
      const sentAt = Date.now();
      const done = h.command(MACHINES[0]!, { type: 'spin' });
      await sleep(SPIN_WINDOW_MS);
      const rec = await page.evaluate(() => window.reel.frames());
      const after = rec.filter((f) => f.atMs >= sentAt);
      spinFrames.push(...after.filter((f) => f.atMs <= sentAt + SPIN_WINDOW_MS));
      // If the picture was still moving before the command, the video lags (an overloaded
      // machine) and the sample would measure the previous spin: leave it out, count it dropped.
      const settled = rec.filter((f) => f.atMs < sentAt).slice(-3);
      if (settled.length < 3 || settled.some((f) => f.motion > MOTION_THRESHOLD)) {
        notes.push(`spin ${i + 1}: reels not still before the command (video lagging); sample dropped`);
        spinsDropped++;
        await done;
        while (h.hub.get(MACHINES[0]!)?.state === 'in_bonus') await sleep(200);
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
      if (hit === null || hit > MOTION_WINDOW_MS) {
        notes.push(
          `spin ${i + 1}: no motion within ${MOTION_WINDOW_MS} ms, counted as ${MOTION_WINDOW_MS} ms (${result.outcome}${result.reason ? ` ${result.reason}` : ''}; ${after.length} frames)`,
        );
        spinToMotion.push(MOTION_WINDOW_MS);
      } else spinToMotion.push(hit);
      // Let a free-spin bonus finish before the next paid spin.
      while (h.hub.get(MACHINES[0]!)?.state === 'in_bonus') await sleep(200);
    }
    const cpuSpinning = spinCpu.stop();
    const spinning = latency(spinFrames);
    const statsAfter = await page.evaluate(() => window.reel.stats());
    await page.evaluate(() => window.reel.stop());
    await sleep(1000);
    // The browser's viewer is gone: only the node viewers below watch machine 1.
    const viewers = await viewerCost(h, { media: groups.media! }, notes);
    notes.push(`while spinning: ${split(spinning)}`);
    notes.push(`attract mode: ${split(attract)}`);
    notes.push(
      `while spinning: video packets lost ${(statsAfter?.videoPacketsLost ?? 0) - (statsBefore?.videoPacketsLost ?? 0)}, ` +
        `jitter buffer ${statsBefore?.jitterBufferDelayMs.toFixed(0)} -> ${statsAfter?.jitterBufferDelayMs.toFixed(0)} ms (mean), ` +
        `frames dropped ${(statsAfter?.framesDropped ?? 0) - (statsBefore?.framesDropped ?? 0)}`,
    );
    notes.push(`spin to motion samples (ms): ${spinToMotion.map((x) => x.toFixed(0)).join(', ')}`);
    for (const [kind, j] of [['warm', warmJoins], ['cold', coldJoins]] as const) {
      notes.push(`${kind} join → live frame samples (ms): ${j.live.map((x) => x.toFixed(0)).join(', ')}`);
      notes.push(
        `${kind} join → first picture of any age p50/p95 ${ms(pct(j.picture, 50))}/${ms(pct(j.picture, 95))}, ` +
          `that picture's age p50/max ${ms(pct(j.pictureAge, 50))}/${ms(pct(j.pictureAge, 100))}`,
      );
    }
    return {
      backend,
      ffmpeg: ffmpegOfCabinet(h.cabinetLog),
      spinning,
      attract,
      warmJoins,
      coldJoins,
      spinToMotion,
      spinsDropped,
      cpuAttract,
      cpuSpinning,
      viewers,
      notes,
    };
  } finally {
    await browser.close().catch(() => {});
    await h.stop();
  }
}


const verdict = new Verdict('video bench');
const results: Result[] = [];
console.log(
  `video bench: ${MACHINES.length} warm machines streaming 640x360@30 VP8 + Opus, ${COLD_MACHINES.length} cold (${COLD_MACHINES.join(', ')}) streaming only while joined; Chromium ${CHROMIUM_PATH}; all on loopback`,
);
const ffmpeg = await benchFfmpeg();
console.log(`video bench: ffmpeg ${describeFfmpeg(ffmpeg)} for every backend`);
if (!ffmpeg) verdict.missing('ffmpeg', 'none found: no video to measure');
const backends = (process.env.BENCH_BACKENDS ?? 'werift,janus').split(',').map((b) => b.trim()).filter(Boolean);
for (const backend of backends) {
  if (backend !== 'werift' && backend !== 'janus') {
    verdict.missing(backend, 'unknown backend in BENCH_BACKENDS');
    continue;
  }
  if (backend === 'janus' && !existsSync(chooseJanus().bin)) {
    console.log(`janus: requested but not installed (${chooseJanus().bin})`);
    verdict.missing('janus', 'requested but not installed');
    continue;
  }
  console.log(`${backend}: running${backend === 'janus' ? ` ${describeJanus()}` : ''}`);
  try {
    results.push(await run(backend, ffmpeg));
  } catch (err) {
    console.log(`${backend} run failed: ${String(err)}`);
    verdict.missing(backend, `its run threw: ${String(err)}`);
  }
}
console.log('');
// Figures of different encoders side by side would compare the encoders, not the backends.
const mismatch = ffmpegMismatch([{ name: 'chosen', ffmpeg }, ...results.map((r) => ({ name: r.backend, ffmpeg: r.ffmpeg }))]);
if (mismatch) {
  console.log(`REFUSED to compare the backends: ${mismatch}`);
  verdict.missing('backends side by side', mismatch);
}
if (results.length) console.log(table(results, verdict, { machines: MACHINES.length, viewers: VIEWERS, joinTimeoutMs: JOIN_TIMEOUT_MS }));
compareScalePath(results, verdict);
for (const r of results) for (const n of r.notes) console.log(`note (${r.backend}): ${n}`);
console.log(
  'render-to-present = expected display time (rVFC) − render time in the strip, one wall clock (Date.now) on both sides; ' +
    'loopback, so no network or display latency is in it: it is not glass-to-glass.',
);
console.log(
  `CPU is percent of one core from /proc, whole process trees: cabinet (node + ffmpeg) and media per streaming machine (÷ ${MACHINES.length}; ` +
    `the cabinet process also carries the ${COLD_MACHINES.length} idle cold machines), Chromium as a total for one viewer page.`,
);
verdict.finish();
process.exit(process.exitCode ?? 0);
