/**
 * `npm run bench -- fanout` (issue 29): what one more viewer of a machine costs the media path, at
 * the product's top band ('high', 1200 kbps at 30 fps) with the machine spinning, for werift and for
 * the scale path (Janus) side by side. Viewers are node WebRTC peers that decode nothing
 * (e2e/video/whep-viewer.ts), as in the video bench: media-tree CPU with no viewer, then with
 * FANOUT_VIEWERS viewers of the one machine; the difference per viewer is the price of a viewer, and
 * 100 % of a core over it is viewers per core. Goal: ≥ 300 viewers per core on the scale path.
 * It also checks that the media path encodes once per machine, never per viewer (the cabinet's
 * ffmpeg processes with and without viewers, and the one ingest's packets in), and profiles the
 * werift forwarder with --cpu-prof to say where its time goes (SRTP per packet: fanout-profile.ts).
 * Exits non-zero when the scale path misses its goal or a part did not run.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MediaBackend } from '@reel/protocol';
import { Verdict } from '@reel/process';
import { startHarness, type Harness } from '../video/harness.js';
import { attachWhepViewer } from '../video/whep-viewer.js';
import { processTree, startCpuSampler } from './proc-cpu.js';
import { benchFfmpeg, describeFfmpeg, ffmpegOfCabinet } from './bench-ffmpeg.js';
import { printProfile, profileOf, summarizeProfile } from './fanout-profile.js';
import { chooseJanus, describeJanus } from '../../apps/media/src/janus/janus-install.js';
import { janusEventLoops } from '../../apps/media/src/janus/janus-config.js';

const VIEWERS = Number(process.env.FANOUT_VIEWERS ?? 24);
const WINDOW_MS = Number(process.env.FANOUT_WINDOW_MS ?? 6000);
const WINDOWS = Number(process.env.FANOUT_WINDOWS ?? 2);
const GOAL_VIEWERS_PER_CORE = 300;
const MACHINE = 1;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const here = path.dirname(fileURLToPath(import.meta.url));
// The media process may take longer than 20 s to start on a machine loaded by other work.
process.env.MEDIA_READY_TIMEOUT_MS ??= '120000';

interface Run {
  backend: MediaBackend;
  connected: number;
  cpuNone: number[];
  cpuWith: number[];
  perViewerPct: number;
  viewersPerCore: number;
  packetsPerViewerS: number;
  encodersNone: number;
  encodersWith: number;
  ingestPacketsPerS: { none: number; with: number };
  ffmpeg: string;
  packetsSent: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** Keeps the machine spinning (the reels' motion is what the top band's bitrate is for). */
function keepSpinning(h: Harness) {
  let running = true;
  const loop = (async () => {
    await h.command(MACHINE, { type: 'credit_in', amountCents: 10_000_000 });
    while (running) {
      await h.command(MACHINE, { type: 'spin' }).catch(() => undefined);
      while (running && h.hub.get(MACHINE)?.state === 'in_bonus') await sleep(200);
    }
  })();
  return async () => {
    running = false;
    await loop.catch(() => undefined);
  };
}

async function ingestPackets(h: Harness): Promise<number> {
  const stats = await h.media.client.stats();
  const m = stats.machines.find((x) => x.machineId === MACHINE);
  // Janus does not count its ingest (null): NaN, printed as not measured.
  return m && m.videoPackets !== null && m.audioPackets !== null ? m.videoPackets + m.audioPackets : NaN;
}

/** CPU windows (percent of a core) of the media tree, and the ingest's packet rate meanwhile. */
async function windows(h: Harness): Promise<{ cpu: number[]; ingestPerS: number }> {
  const media = { media: () => processTree(h.media.supervisor.pid) };
  const cpu: number[] = [];
  const before = await ingestPackets(h);
  const t0 = Date.now();
  for (let i = 0; i < WINDOWS; i++) {
    const sampler = startCpuSampler(media);
    await sleep(WINDOW_MS);
    cpu.push(sampler.stop().media ?? NaN);
  }
  return { cpu, ingestPerS: ((await ingestPackets(h)) - before) / ((Date.now() - t0) / 1000) };
}

async function run(backend: MediaBackend, ffmpeg: string | undefined, profileDir?: string): Promise<Run> {
  // --cpu-prof is refused in NODE_OPTIONS: a preload starts V8's profiler in the media process instead.
  const nodeOptions = process.env.NODE_OPTIONS;
  if (profileDir) {
    process.env.NODE_OPTIONS = `${nodeOptions ?? ''} --import=${pathToFileURL(path.join(here, 'cpu-profile-preload.mjs')).href}`.trim();
    process.env.FANOUT_PROFILE_DIR = profileDir;
  }
  const h = await startHarness({ machineIds: [MACHINE], backend, ...(ffmpeg ? { ffmpeg } : {}), log: () => {} }).finally(() => {
    if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = nodeOptions;
  });
  const encoders = () => processTree(h.cabinet.pid, /^ffmpeg/).filter((p) => p !== h.cabinet.pid).length;
  const viewers: Awaited<ReturnType<typeof attachWhepViewer>>[] = [];
  const mediaPid = h.media.supervisor.pid;
  let stopSpinning = async () => {};
  try {
    await h.waitStreaming([MACHINE]);
    stopSpinning = keepSpinning(h);
    await sleep(2000);
    const none = profileDir ? { cpu: [], ingestPerS: NaN } : await windows(h);
    const encodersNone = encoders();
    for (let i = 0; i < VIEWERS; i++) {
      const grant = h.media.issueGrant(20_000 + i, MACHINE, { ttlMs: 20_000 });
      viewers.push(await attachWhepViewer(new URL(grant.whepUrl, h.baseUrl).toString(), grant.grant));
    }
    // Every viewer receiving (a loaded machine takes seconds per DTLS handshake), 30 s at most.
    for (let t = 0; t < 30 && viewers.some((v) => v.counter.packets === 0); t++) await sleep(1000);
    await sleep(1000);
    const live = viewers.filter((v) => v.counter.packets > 0);
    for (const v of viewers) v.counter.packets = 0;
    const withViewers = await windows(h);
    const packets = live.reduce((a, v) => a + v.counter.packets, 0);
    const encodersWith = encoders();
    const stats = await h.media.client.stats();
    const packetsSent = stats.viewers.reduce((a, v) => a + (v.packetsSent ?? NaN), 0);
    const perViewerPct = (mean(withViewers.cpu) - mean(none.cpu)) / Math.max(1, live.length);
    return {
      backend,
      connected: live.length,
      cpuNone: none.cpu,
      cpuWith: withViewers.cpu,
      perViewerPct,
      viewersPerCore: perViewerPct > 0 ? 100 / perViewerPct : NaN,
      packetsPerViewerS: live.length ? packets / live.length / ((WINDOW_MS * WINDOWS) / 1000) : NaN,
      encodersNone,
      encodersWith,
      ingestPacketsPerS: { none: none.ingestPerS, with: withViewers.ingestPerS },
      ffmpeg: describeFfmpeg(ffmpegOfCabinet(h.cabinetLog)),
      packetsSent,
    };
  } finally {
    await stopSpinning();
    for (const v of viewers) await v.close();
    await h.stop();
    if (profileDir && mediaPid) {
      // The profile is written when the media process exits (stopped just above).
      for (let i = 0; i < 50 && !profileOf(profileDir, mediaPid); i++) await sleep(100);
    }
  }
}

const verdict = new Verdict('fanout bench');
const ffmpeg = await benchFfmpeg();
// werift's package.json is not among its exports: read from the workspace's node_modules.
const root = path.resolve(here, '../..');
const weriftVersion = (JSON.parse(readFileSync(path.join(root, 'node_modules/werift/package.json'), 'utf8')) as { version: string }).version;
console.log(`fanout bench: ${VIEWERS} non-decoding viewers of one machine at the top band (high), spinning; ${WINDOWS} CPU windows of ${WINDOW_MS} ms each, without and with them`);
console.log(`parts: node ${process.version}, werift ${weriftVersion}, janus ${existsSync(chooseJanus().bin) ? describeJanus() : `not installed (${chooseJanus().bin})`}, ffmpeg ${describeFfmpeg(ffmpeg)}`);
console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (${os.cpus().length} cores)`);

const runs: Run[] = [];
const backends = (process.env.FANOUT_BACKENDS ?? 'werift,janus').split(',').filter((b): b is MediaBackend => b === 'werift' || b === 'janus');
const janusLoops = janusEventLoops();
console.log(`janus: ${janusLoops > 0 ? `${janusLoops} shared event loops` : 'a thread per viewer'} (JANUS_EVENT_LOOPS=${process.env.JANUS_EVENT_LOOPS ?? 'unset: one loop a core'})`);
for (const backend of backends) {
  if (backend === 'janus' && !existsSync(chooseJanus().bin)) {
    verdict.missing('janus', `not installed (${chooseJanus().bin})`);
    continue;
  }
  try {
    runs.push(await run(backend, ffmpeg?.path));
  } catch (error) {
    verdict.missing(backend, `its run threw: ${String(error)}`);
  }
}

console.log('');
console.log('backend  viewers  media CPU none → with (% of a core, per window)     per viewer   viewers/core  pkts/viewer/s  encoders 0 → N  ingest pkts/s 0 → N');
for (const r of runs) {
  console.log(
    `${r.backend.padEnd(8)} ${String(r.connected).padStart(3)}/${VIEWERS}   ${r.cpuNone.map((c) => c.toFixed(1)).join(', ')} → ${r.cpuWith.map((c) => c.toFixed(1)).join(', ')}`.padEnd(74) +
      `${r.perViewerPct.toFixed(3)} %`.padStart(10) +
      `${r.viewersPerCore.toFixed(0)}`.padStart(14) +
      `${r.packetsPerViewerS.toFixed(0)}`.padStart(15) +
      `${r.encodersNone} → ${r.encodersWith}`.padStart(16) +
      `${r.ingestPacketsPerS.none.toFixed(0)} → ${r.ingestPacketsPerS.with.toFixed(0)}`.padStart(20),
  );
}
for (const r of runs) {
  console.log(`  ${r.backend}: cabinet encoder ${r.ffmpeg}; RTP packets sent to viewers (media stats) ${r.packetsSent}`);
  verdict.samples(`${r.backend} viewers connected`, r.connected, VIEWERS);
  verdict.samples(`${r.backend} CPU windows`, r.cpuWith.length, WINDOWS);
  // One encode per machine: the same single ffmpeg with N viewers as with none.
  verdict.check(`${r.backend}: ffmpeg encoders of the machine with ${r.connected} viewers`, r.encodersWith, { min: 1, max: 1 });
  verdict.check(`${r.backend}: ffmpeg encoders with no viewer`, r.encodersNone, { min: 1, max: 1 });
}
const janus = runs.find((r) => r.backend === 'janus');
if (janus) console.log(`scale path (Janus) viewers per core: ${verdict.check('janus viewers per core', janus.viewersPerCore, { min: GOAL_VIEWERS_PER_CORE })}`);
const werift = runs.find((r) => r.backend === 'werift');
if (werift) console.log(`werift viewers per core: ${werift.viewersPerCore.toFixed(0)} (no goal; the figure as it is)`);

// Where werift's time goes: the same load once more, with the media process under --cpu-prof.
const dir = mkdtempSync(path.join(os.tmpdir(), 'fanout-prof-'));
try {
  if (!backends.includes('werift')) throw new Error('werift not among FANOUT_BACKENDS');
  const profiled = await run('werift', ffmpeg?.path, dir);
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  // The media process is the profile with werift in it (the cabinet process writes one too).
  const summaries = files.map((f) => summarizeProfile(path.join(dir, f))).filter((s) => s.parts.some((p) => /werift/.test(p.part)));
  if (summaries.length === 0) verdict.missing('werift profile', `no profile of the media process in ${dir}`);
  else printProfile(summaries[0]!, profiled.packetsSent);
} catch (error) {
  verdict.missing('werift profile', String(error));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
verdict.finish();
process.exit(process.exitCode ?? 0);
