/**
 * Live video in a cluster (docs/scale.md). Every server starts its media process at boot (Janus in
 * `npm run cluster`) and streams the machines of the shards it owns into it (through the mirror,
 * whichever server holds a cabinet), and issues their grants. A browser's WHEP calls land on any
 * server through HAProxy; each relays them over the bus to the owner of the machine's shard
 * (`media.call.<shard>`), whose media process answers; the viewer id handed back carries the shard
 * (`s07…`), so the later PATCH and DELETE find the same owner. ICE and the media then flow between
 * the browser and that owner's media process. When a shard's owner changes, its game sockets are
 * closed with 1012, the web app joins again and gets a grant for the new owner's media process.
 */
import type { CreateViewerResponse, ViewerCloseReason } from '@reel/protocol';
import type { AppContext } from '../context.js';
import type { Bus } from '../lib/bus.js';
import { MediaControlError, type MediaClient } from '../modules/media/media-client.js';
import type { ViewerGateway } from '../modules/media/plugin.js';
import type { MediaService } from '../modules/media/media-service.js';
import { createVideoPort } from '../modules/media/video-port.js';
import type { CabinetPort, VideoPort } from '../modules/sessions/types.js';
import { RemoteError } from './nats-bus.js';
import { shardOf } from './shards.js';

const MediaTopic = { call: (shard: number) => `media.call.${shard}` } as const;

type MediaCall =
  | { op: 'create'; grant: string; machineId: number; sdp: string }
  | { op: 'answer'; viewerId: string; sdp: string }
  | { op: 'delete'; viewerId: string; reason: ViewerCloseReason };

/** A little longer than the media client's own 10 s, so its answer or its error comes back. */
const CALL_TIMEOUT_MS = 12_000;

/** The shard's owner answers every server's WHEP calls for its machines with its media process. Returns the unsubscribe. */
function serveViewers(bus: Bus, client: MediaClient, shard: number): () => void {
  return bus.respond(
    MediaTopic.call(shard),
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

/** The viewer id the browser gets: the shard (two digits after an `s`), then the media process' own id. */
const VIEWER_OF_SHARD = /^s(\d{2})(.+)$/;
const viewerIdOf = (shard: number, viewerId: string) => `s${String(shard).padStart(2, '0')}${viewerId}`;

/** What every server's WHEP routes use: the media process of the machine's shard owner, asked over the bus. */
export function remoteViewers(bus: Bus): ViewerGateway {
  const ask = async <T>(shard: number, call: MediaCall): Promise<T> => {
    try {
      return (await bus.request(MediaTopic.call(shard), call, { timeoutMs: CALL_TIMEOUT_MS })) as T;
    } catch (error) {
      if (error instanceof MediaControlError) throw error;
      // The media process' refusal (a bad grant, an unknown viewer) keeps its status and code.
      if (error instanceof RemoteError && typeof error.details.status === 'number') throw new MediaControlError(error.details.status, String(error.details.code ?? 'error'));
      // No owner right now (a failover): the browser's video retries, and the rejoin brings a new grant.
      throw new MediaControlError(503, 'media_unavailable');
    }
  };
  /** The shard and the media process' id of a viewer id handed out here (an unknown one: 404). */
  const parse = (viewerId: string) => {
    const match = VIEWER_OF_SHARD.exec(viewerId);
    if (!match) throw new MediaControlError(404, 'unknown_viewer');
    return { shard: Number(match[1]), id: match[2]! };
  };
  return {
    async createViewer(grant, machineId, sdp) {
      const shard = shardOf(machineId);
      const created = await ask<CreateViewerResponse>(shard, { op: 'create', grant, machineId, sdp });
      return { ...created, viewerId: viewerIdOf(shard, created.viewerId) };
    },
    async answerViewer(viewerId, sdp) {
      const { shard, id } = parse(viewerId);
      await ask(shard, { op: 'answer', viewerId: id, sdp });
    },
    async deleteViewer(viewerId, reason = 'leave') {
      const { shard, id } = parse(viewerId);
      await ask(shard, { op: 'delete', viewerId: id, reason });
    },
  };
}

/** A server's video for the shards it owns: one port over their machines, and each shard's WHEP answers. */
export interface ShardVideo extends VideoPort {
  /** Answers the shard's WHEP calls from now on; returns the unsubscribe. */
  serve(shard: number): () => void;
  stop(): void;
}

/** Streams into this server's media process, grants for it, and the WHEP relay's answers per owned shard. */
export function shardVideo(ctx: Pick<AppContext, 'bus' | 'config'>, media: MediaService, cabinets: CabinetPort, isHeld: (machineId: number) => boolean): ShardVideo {
  const port = createVideoPort(cabinets, media, {
    warmStreams: ctx.config.media.warmStreams,
    timestampStrip: ctx.config.media.timestampStrip,
    isHeld,
    log: (line) => console.log(`[video] ${line}`),
  });
  return {
    grant: port.grant,
    setBand: port.setBand,
    serve: (shard) => serveViewers(ctx.bus, media.client, shard),
    stop: () => port.stop(),
  };
}
