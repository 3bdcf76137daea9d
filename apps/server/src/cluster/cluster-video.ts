/**
 * Live video in a cluster (docs/scale.md). Every server starts its media process at boot (Janus in
 * `npm run cluster`), so a new session owner has one ready; only the owner's is used: it starts the
 * cabinets' streams into it (through the mirror, whichever server holds a cabinet) and issues the
 * grants. A browser's WHEP calls land on any server through HAProxy; each relays them over the bus to
 * the owner (`media.call`), whose media process answers. ICE and the media then flow between the
 * browser and the owner's media process. When the owner changes, the game sockets are closed with
 * 1012, the web app joins again and gets a grant for the new owner's media process.
 */
import type { ViewerCloseReason } from '@reel/protocol';
import type { AppContext } from '../context.js';
import type { Bus } from '../lib/bus.js';
import { MediaControlError, type MediaClient } from '../modules/media/media-client.js';
import type { ViewerGateway } from '../modules/media/plugin.js';
import type { MediaService } from '../modules/media/media-service.js';
import { createVideoPort } from '../modules/media/video-port.js';
import type { CabinetPort, VideoPort } from '../modules/sessions/types.js';
import { RemoteError } from './nats-bus.js';

const MediaTopic = { call: 'media.call' } as const;

type MediaCall =
  | { op: 'create'; grant: string; machineId: number; sdp: string }
  | { op: 'answer'; viewerId: string; sdp: string }
  | { op: 'delete'; viewerId: string; reason: ViewerCloseReason };

/** A little longer than the media client's own 10 s, so its answer or its error comes back. */
const CALL_TIMEOUT_MS = 12_000;

/** The owner answers every server's WHEP calls with its media process. Returns the unsubscribe. */
function serveViewers(bus: Bus, client: MediaClient): () => void {
  return bus.respond(
    MediaTopic.call,
    async (message) => {
      const call = message as MediaCall;
      switch (call.op) {
        case 'create':
          return client.createViewer(call.grant, call.machineId, call.sdp);
        case 'answer':
          return client.answerViewer(call.viewerId, call.sdp);
        case 'delete':
          return client.deleteViewer(call.viewerId, call.reason);
      }
    },
    { group: 'owner' },
  );
}

/** What every server's WHEP routes use: the owner's media process, asked over the bus. */
export function remoteViewers(bus: Bus): ViewerGateway {
  const ask = async <T>(call: MediaCall): Promise<T> => {
    try {
      return (await bus.request(MediaTopic.call, call, { timeoutMs: CALL_TIMEOUT_MS })) as T;
    } catch (error) {
      if (error instanceof MediaControlError) throw error;
      // The media process' refusal (a bad grant, an unknown viewer) keeps its status and code.
      if (error instanceof RemoteError && typeof error.details.status === 'number') throw new MediaControlError(error.details.status, String(error.details.code ?? 'error'));
      // No owner right now (a failover): the browser's video retries, and the rejoin brings a new grant.
      throw new MediaControlError(503, 'media_unavailable');
    }
  };
  return {
    createViewer: (grant, machineId, sdp) => ask({ op: 'create', grant, machineId, sdp }),
    answerViewer: (viewerId, sdp) => ask({ op: 'answer', viewerId, sdp }),
    deleteViewer: (viewerId, reason = 'leave') => ask({ op: 'delete', viewerId, reason }),
  };
}

type OwnerVideo = VideoPort & { stop(): void };

/** The owner's video: streams into this server's media process, grants for it, and the WHEP relay's answers. */
export function ownerVideo(ctx: Pick<AppContext, 'bus' | 'config'>, media: MediaService) {
  return (cabinets: CabinetPort, isHeld: (machineId: number) => boolean): OwnerVideo => {
    const port = createVideoPort(cabinets, media, {
      warmStreams: ctx.config.media.warmStreams,
      timestampStrip: ctx.config.media.timestampStrip,
      isHeld,
      log: (line) => console.log(`[video] ${line}`),
    });
    const unserve = serveViewers(ctx.bus, media.client);
    return {
      grant: port.grant,
      setBand: port.setBand,
      stop() {
        unserve();
        port.stop();
      },
    };
  };
}
