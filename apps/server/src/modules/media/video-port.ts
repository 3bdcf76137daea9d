/**
 * Which cabinets stream, and grants to watch them. A few machines stay "warm" (always streaming,
 * so joining them shows a picture at once from the forwarder's keyframe cache); the others start
 * streaming when a player joins and stop when nobody holds them, to spare the CPU.
 */
import type { CabinetPort, VideoPort } from '../sessions/types.js';
import { startBandControl } from './band-control.js';
import type { MediaService } from './media-service.js';
import type { WatchVideo } from '../spectators/spectators.js';

const IDLE_SWEEP_MS = 30_000;

export function createVideoPort(
  hub: CabinetPort,
  media: MediaService,
  options: {
    warmStreams: number;
    timestampStrip: boolean;
    isHeld: (machineId: number) => boolean;
    /** How long a spectator's grant lives (config.spectators.grantTtlMs). */
    watchGrantTtlMs?: number;
    log?: (message: string) => void;
  },
): Required<VideoPort> & WatchVideo & { stop(): void } {
  const streaming = new Map<number, Promise<void>>();
  const warm = new Set<number>();
  const bands = startBandControl(hub, media, { isStreaming: (id) => streaming.has(id), ...(options.log ? { log: options.log } : {}) });

  const ensureStreaming = (machineId: number) => {
    // A headless cabinet (`--no-video`) has nothing to stream: no command, no log line per join.
    if (hub.get(machineId)?.info.headless) return Promise.reject(new Error(`machine ${machineId} runs without video`));
    let started = streaming.get(machineId);
    if (!started) {
      // A (re)started stream begins at the top band.
      bands.noteBand(machineId, 'high');
      started = media.startMachineStream(hub, machineId, { timestampStrip: options.timestampStrip }).then(() => undefined);
      started.catch((error) => {
        streaming.delete(machineId);
        options.log?.(`stream of machine ${machineId} did not start: ${(error as Error).message}`);
      });
      streaming.set(machineId, started);
    }
    return started;
  };

  const onConnected = ({ machineId }: { machineId: number }) => {
    streaming.delete(machineId);
    if (hub.get(machineId)?.info.headless) return;
    if (warm.has(machineId) || warm.size < options.warmStreams) {
      warm.add(machineId);
      void ensureStreaming(machineId).catch(() => {});
    } else if (options.isHeld(machineId)) {
      void ensureStreaming(machineId).catch(() => {});
    }
  };
  const onDisconnected = ({ machineId }: { machineId: number }) => void streaming.delete(machineId);
  // A restarted media process has no ingests: every stream must be set up again.
  const onMediaReady = () => {
    const machines = [...streaming.keys()];
    streaming.clear();
    for (const machineId of machines) void ensureStreaming(machineId).catch(() => {});
  };
  hub.on('connected', onConnected);
  hub.on('disconnected', onDisconnected);
  media.supervisor.on('ready', onMediaReady);

  const sweep = setInterval(() => {
    for (const machineId of streaming.keys()) {
      if (warm.has(machineId) || options.isHeld(machineId)) continue;
      streaming.delete(machineId);
      void hub.sendCommand(machineId, { type: 'stream_stop' }).catch(() => {});
    }
  }, IDLE_SWEEP_MS);
  sweep.unref();

  return {
    async grant(playerId, machineId) {
      await ensureStreaming(machineId);
      return media.issueGrant(playerId, machineId);
    },
    /** A spectator's grant: the same one encoded stream, a grant that can only watch it. */
    async watchGrant(playerId, machineId) {
      await ensureStreaming(machineId);
      return media.issueGrant(playerId, machineId, { ttlMs: options.watchGrantTtlMs ?? 20_000 });
    },
    async setBand(machineId, bandId) {
      const result = await hub.sendCommand(machineId, { type: 'set_band', bandId });
      if (result.outcome !== 'ok') throw new Error(result.reason ?? 'band refused');
      bands.noteBand(machineId, bandId);
    },
    // A cluster server that loses the sessions stops its port; the media process and hub live on.
    stop() {
      hub.off('connected', onConnected);
      hub.off('disconnected', onDisconnected);
      media.supervisor.off('ready', onMediaReady);
      clearInterval(sweep);
      bands.stop();
    },
  };
}
