/**
 * `npm run bench -- fanout` (issue 29): what one more viewer of a machine costs the media path, at
 * the product's top band ('high', 1200 kbps at 30 fps) with the machine spinning, for werift and for
 * the scale path (Janus) side by side. Viewers are node WebRTC peers that decode nothing
 * (e2e/video/whep-viewer.ts), as in the video bench: media-tree CPU with no viewer, then with each of
 * FANOUT_VIEWERS (a rising list) viewers of the one machine, added to those already there; the
 * difference per viewer is the price of a viewer, and 100 % of a core over it is viewers per core.
 * The price falls as viewers are added (Janus serves several viewers per wake-up of a loop), so the
 * goal is judged at the largest count whose viewers all kept up (each received at least 90 % of
 * the packets a second the first count's viewers did); past the first count the viewers count
 * packets without decrypting them, or the bench's own node process would be what saturates.
 * Goal: ≥ 300 viewers per core on the scale path. werift is measured at the first count only: its
 * price a viewer puts a few hundred viewers past this machine's two cores.
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

const VIEWER_COUNTS = (process.env.FANOUT_VIEWERS ?? '24,120,200')
  .split(',')
  .map(Number)
  .filter((n) => n > 0)
  .sort((a, b) => a - b);
/** A count's viewers kept up when each received this share of the first count's packets a second. */
const KEPT_UP = 0.9;
const WINDOW_MS = Number(process.env.FANOUT_WINDOW_MS ?? 6000);
const WINDOWS = Number(process.env.FANOUT_WINDOWS ?? 2);
const GOAL_VIEWERS_PER_CORE = 300;
const MACHINE = 1;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const here = path.dirname(fileURLToPath(import.meta.url));
// The media process may take longer than 20 s to start on a machine loaded by other work.
process.env.MEDIA_READY_TIMEOUT_MS ??= '120000';

/** One count of viewers attached at once. */
interface Point {
  viewers: number;
  connected: number;
  decrypting: boolean;
  cpuWith: number[];
  /** The bench's own process (the viewers), % of a core. */
  viewersCpu: number;
  perViewerPct: number;
  viewersPerCore: number;
  packetsPerViewerS: number;
  encodersWith: number;
  ingestPacketsPerS: number;
  packetsSent: number;
}

interface Run {
  backend: MediaBackend;
  cpuNone: number[];
  encodersNone: number;
  ingestPacketsPerS: number;
  points: Point[];
  ffmpeg: string;
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

/** CPU windows (percent of a core) of the media tree and of the viewers, and the ingest's packet rate meanwhile. */
async function windows(h: Harness): Promise<{ cpu: number[]; viewersCpu: number; ingestPerS: number }> {
  const parts = { media: () => processTree(h.media.supervisor.pid), viewers: () => [process.pid] };
  const cpu: number[] = [];
  const viewersCpu: number[] = [];
  const before = await ingestPackets(h);
  const t0 = Date.now();
  for (let i = 0; i < WINDOWS; i++) {
    const sampler = startCpuSampler(parts);
    await sleep(WINDOW_MS);
    const shares = sampler.stop();
    cpu.push(shares.media ?? NaN);
    viewersCpu.push(shares.viewers ?? NaN);
  }
  return { cpu, viewersCpu: mean(viewersCpu), ingestPerS: ((await ingestPackets(h)) - before) / ((Date.now() - t0) / 1000) };
}

async function run(backend: MediaBackend, ffmpeg: string | undefined, counts: number[], profileDir?: string): Promise<Run> {
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
    const none = profileDir ? { cpu: [], viewersCpu: NaN, ingestPerS: NaN } : await windows(h);
    const encodersNone = encoders();
    const points: Point[] = [];
    for (const count of counts) {
      // The first count decrypts every packet, as a browser would; later ones only count them.
      const decrypting = count === counts[0];
      const added = viewers.length;
      for (let i = added; i < count; i++) {
        const grant = h.media.issueGrant(20_000 + i, MACHINE, { ttlMs: 20_000 });
        viewers.push(await attachWhepViewer(new URL(grant.whepUrl, h.baseUrl).toString(), grant.grant, 10_000, { decrypt: decrypting }));
      }
      // Every viewer receiving (a loaded machine takes seconds per DTLS handshake), 30 s at most.
      for (let t = 0; t < 30 && viewers.some((v) => v.counter.packets === 0); t++) await sleep(1000);
      await sleep(1000);
      const live = viewers.filter((v) => v.counter.packets > 0);
      for (const v of viewers) v.counter.packets = 0;
      const withViewers = await windows(h);
      const packets = live.reduce((a, v) => a + v.counter.packets, 0);
      const stats = await h.media.client.stats();
      const perViewerPct = (mean(withViewers.cpu) - mean(none.cpu)) / Math.max(1, live.length);
      points.push({
        viewers: count,
        connected: live.length,
        decrypting,
        cpuWith: withViewers.cpu,
        viewersCpu: withViewers.viewersCpu,
        perViewerPct,
        viewersPerCore: perViewerPct > 0 ? 100 / perViewerPct : NaN,
        packetsPerViewerS: live.length ? packets / live.length / ((WINDOW_MS * WINDOWS) / 1000) : NaN,
        encodersWith: encoders(),
        ingestPacketsPerS: withViewers.ingestPerS,
        packetsSent: stats.viewers.reduce((a, v) => a + (v.packetsSent ?? NaN), 0),
      });
    }
    return { backend, cpuNone: none.cpu, encodersNone, ingestPacketsPerS: none.ingestPerS, points, ffmpeg: describeFfmpeg(ffmpegOfCabinet(h.cabinetLog)) };
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
console.log(`fanout bench: ${VIEWER_COUNTS.join(', ')} non-decoding viewers of one machine at the top band (high), spinning (Janus every count, werift the first); ${WINDOWS} CPU windows of ${WINDOW_MS} ms each, without viewers and at each count`);
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
    runs.push(await run(backend, ffmpeg?.path, backend === 'janus' ? VIEWER_COUNTS : VIEWER_COUNTS.slice(0, 1)));
  } catch (error) {
    verdict.missing(backend, `its run threw: ${String(error)}`);
  }
}

console.log('');
console.log('backend  viewers   decrypt  media CPU none → with (% of a core, per window)   per viewer  viewers/core  pkts/viewer/s  viewers\' CPU  encoders 0 → N  ingest pkts/s 0 → N');
for (const r of runs) {
  for (const p of r.points) {
    console.log(
      `${r.backend.padEnd(8)} ${String(p.connected).padStart(3)}/${String(p.viewers).padEnd(4)}  ${(p.decrypting ? 'yes' : 'no').padEnd(7)}  ${r.cpuNone.map((c) => c.toFixed(1)).join(', ')} → ${p.cpuWith.map((c) => c.toFixed(1)).join(', ')}`.padEnd(83) +
        `${p.perViewerPct.toFixed(3)} %`.padStart(10) +
        `${p.viewersPerCore.toFixed(0)}`.padStart(14) +
        `${p.packetsPerViewerS.toFixed(0)}`.padStart(15) +
        `${p.viewersCpu.toFixed(0)} %`.padStart(14) +
        `${r.encodersNone} → ${p.encodersWith}`.padStart(16) +
        `${r.ingestPacketsPerS.toFixed(0)} → ${p.ingestPacketsPerS.toFixed(0)}`.padStart(20),
    );
  }
}
/** The largest count whose viewers all received and kept up with the first count's packet rate. */
function judged(r: Run): Point | undefined {
  const first = r.points[0];
  const keptUp = r.points.filter((p) => p.connected === p.viewers && first && p.packetsPerViewerS >= KEPT_UP * first.packetsPerViewerS);
  return keptUp.at(-1);
}
for (const r of runs) {
  console.log(`  ${r.backend}: cabinet encoder ${r.ffmpeg}; RTP packets sent to viewers (media stats) ${r.points.map((p) => p.packetsSent).join(', ')}`);
  for (const p of r.points) {
    verdict.samples(`${r.backend} viewers connected of ${p.viewers}`, p.connected, p.viewers);
    verdict.samples(`${r.backend} CPU windows with ${p.viewers}`, p.cpuWith.length, WINDOWS);
    // One encode per machine: the same single ffmpeg with N viewers as with none.
    verdict.check(`${r.backend}: ffmpeg encoders of the machine with ${p.connected} viewers`, p.encodersWith, { min: 1, max: 1 });
  }
  verdict.check(`${r.backend}: ffmpeg encoders with no viewer`, r.encodersNone, { min: 1, max: 1 });
}
const janus = runs.find((r) => r.backend === 'janus');
if (janus) {
  const point = judged(janus);
  const largest = janus.points.at(-1);
  if (largest && point !== largest) verdict.missing('janus at the largest count', `${largest.viewers} viewers did not keep up (${largest.packetsPerViewerS.toFixed(0)} packets a second each against ${janus.points[0]?.packetsPerViewerS.toFixed(0)} at ${janus.points[0]?.viewers})`);
  if (point) console.log(`scale path (Janus) viewers per core at ${point.viewers} viewers: ${verdict.check('janus viewers per core', point.viewersPerCore, { min: GOAL_VIEWERS_PER_CORE })}`);
  else verdict.missing('janus viewers per core', 'no count of viewers kept up');
}
const werift = runs.find((r) => r.backend === 'werift');
if (werift) console.log(`werift viewers per core at ${werift.points[0]?.viewers} viewers: ${werift.points[0]?.viewersPerCore.toFixed(0)} (no goal; the figure as it is)`);

// Where werift's time goes: the same load once more, with the media process under --cpu-prof.
const dir = mkdtempSync(path.join(os.tmpdir(), 'fanout-prof-'));
try {
  if (!backends.includes('werift')) throw new Error('werift not among FANOUT_BACKENDS');
  const profiled = await run('werift', ffmpeg?.path, VIEWER_COUNTS.slice(0, 1), dir);
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  // The media process is the profile with werift in it (the cabinet process writes one too).
  const summaries = files.map((f) => summarizeProfile(path.join(dir, f))).filter((s) => s.parts.some((p) => /werift/.test(p.part)));
  if (summaries.length === 0) verdict.missing('werift profile', `no profile of the media process in ${dir}`);
  else printProfile(summaries[0]!, profiled.points[0]?.packetsSent ?? NaN);
} catch (error) {
  verdict.missing('werift profile', String(error));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
verdict.finish();
process.exit(process.exitCode ?? 0);
