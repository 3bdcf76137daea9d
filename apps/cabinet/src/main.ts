/**
 * Machine agent entry: starts the configured machines (see config.ts), connects them to the
 * server's agent channel, and streams each one's video when the server asks (stream_start).
 */
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { stopOnSignal } from '@reel/process';
import { brandArt } from '@reel/protocol';
import { SlotMachine } from './game/machine.js';
import { FileMemoryStore } from './game/critical-memory.js';
import { MachineStream } from './media/machine-stream.js';
import { DEFAULT_BANDS } from './media/bands.js';
import { resolveFfmpeg } from './media/ffmpeg-path.js';
import { describeProbe, probeFfmpeg } from './media/ffmpeg-probe.js';
import { prepareVideoRelays } from './media/video-relay.js';
import { AgentClient } from './agent/agent-client.js';
import { LobbySnapshots } from './media/lobby-snapshots.js';
import { loadCabinetConfig } from './config.js';

const log = (msg: string) => console.log(`[cabinet] ${msg}`);
const config = loadCabinetConfig();
if (config.machines.length === 0) {
  console.error('[cabinet] no machines configured: set CABINET_MACHINES="1=key,..." or CABINET_KEYS_FILE');
  process.exit(2);
}
const defaultFfmpeg = resolveFfmpeg();
if (process.env.FFMPEG && process.env.FFMPEG !== defaultFfmpeg) log(`FFMPEG=${process.env.FFMPEG} does not exist`);
/** The machine's own ffmpeg (CABINET_FFMPEG) when it exists, else the one every machine uses. */
function ffmpegOf(machineId: number, path: string | null): string | null {
  if (path === null) return defaultFfmpeg;
  if (existsSync(path)) return path;
  log(`CABINET_FFMPEG: ${path} for machine ${machineId} does not exist; it uses ${defaultFfmpeg ?? 'no ffmpeg'}`);
  return defaultFfmpeg;
}
const videoMachines = config.machines.filter((m) => m.video);
if (videoMachines.length < config.machines.length)
  log(`headless (no rendering, no video): machines ${config.machines.filter((m) => !m.video).map((m) => m.machineId).join(', ')}`);
const ffmpegPaths = new Map(videoMachines.map((m) => [m.machineId, ffmpegOf(m.machineId, m.ffmpeg)]));
const usedFfmpegs = new Set(ffmpegPaths.values());
if (usedFfmpegs.has(null)) log('ffmpeg not found: machines run without video');
// Once per binary: which version, which arguments (the streams reuse this cached probe).
// A binary that needs the picture-ID relay starts its thread now, not when a player joins cold.
for (const path of usedFfmpegs)
  if (path)
    void probeFfmpeg(path).then((probe) => {
      log(describeProbe(probe));
      if (probe.capabilities.shortPictureIds) prepareVideoRelays();
    });

log(`critical memory in ${config.dataDir}`);
const entries = config.machines.map(({ machineId, key, camera, video }) => {
  const ffmpegPath = ffmpegPaths.get(machineId) ?? null;
  const machine = new SlotMachine({
    machineId,
    timing: config.timing,
    memory: new FileMemoryStore(config.dataDir, machineId, log),
    onMemoryFailure: (error) =>
      log(`machine ${machineId}: critical memory write failed, machine halted (${String(error)})`),
  });
  const stream = ffmpegPath
    ? new MachineStream(machine, {
        ffmpegPath,
        bands: DEFAULT_BANDS,
        log,
        ...(camera ? { source: { kind: 'camera' as const, device: camera } } : {}),
      })
    : null;
  return {
    machine,
    key,
    video,
    headless: !video,
    stream,
    videoType: camera ? ('camera' as const) : ('screen' as const),
    bands: DEFAULT_BANDS,
  };
});

const agent = new AgentClient({
  url: config.agentUrl,
  agentId: `${hostname()}:${process.pid}`,
  machines: entries,
  log,
});
agent.on('status', (s) => log(`agent ${s} (${config.agentUrl})`));
// A headless machine renders nothing, not even the lobby's stills.
const snapshots = new LobbySnapshots(
  entries.filter((e) => e.video).map((e) => e.machine),
  agent,
);
// The server names each machine's brand: its screen and its lobby stills show that brand's look.
agent.on('profile', (machineId, profile) => {
  const art = brandArt(profile.brand);
  const stream = entries.find((e) => e.machine.machineId === machineId)?.stream;
  stream?.setArt(art);
  void stream?.setFps(profile.fps).catch((error: unknown) => log(`machine ${machineId}: frame rate ${profile.fps} not applied: ${String(error)}`));
  // The first still a moment later, off the path of the machine's own reports.
  setTimeout(() => {
    snapshots.setArt(machineId, art);
    void snapshots.take(machineId).catch((error: unknown) => log(`snapshot of machine ${machineId} failed: ${String(error)}`));
  }, 1_000);
});
agent.start();
snapshots.start();
log(`running machines ${config.machines.map((m) => m.machineId).join(', ')}`);

stopOnSignal(async () => {
  snapshots.stop();
  await agent.stop();
  await Promise.all(entries.map((e) => e.stream?.stop()));
  for (const e of entries) e.machine.dispose();
});
