/**
 * One server of a cluster (docs/scale.md): NATS as the bus, its own agent hub and sockets, the
 * cabinets it holds relayed to the bus, sessions asked of the owner, and a bid for the session
 * lease (the owner role runs here while this server holds it), and its media process ready for
 * when it owns (cluster-video.ts). Every server says it is alive each second, so the owner notices
 * one that died.
 */
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import { createBaseContext } from '../server.js';
import { startAuditSigner, witnessFileOf } from '../modules/audit/audit-signing.js';
import { relayCabinets } from './cabinet-relay.js';
import { ownerVideo, remoteViewers } from './cluster-video.js';
import { createNatsBus } from './nats-bus.js';
import { AliveTopic, OwnerRole } from './owner-role.js';
import { SessionClient } from './session-rpc.js';
import { SessionLease } from './session-lease.js';

const ALIVE_MS = 1_000;

export interface ClusterNode {
  ctx: AppContext;
  owner: OwnerRole;
  lease: SessionLease;
  /** Bids for the lease (call once HTTP listens). */
  start(): void;
  stop(): Promise<void>;
}

export async function createClusterNode(config: Config, databaseUrl: string, log: (line: string) => void = (line) => console.log(`[cluster] ${line}`)): Promise<ClusterNode> {
  const serverId = config.cluster.serverId;
  const bus = await createNatsBus({ servers: config.cluster.natsUrl, prefix: config.cluster.natsPrefix, name: serverId });
  const ctx = await createBaseContext(config, databaseUrl, bus);
  const client = new SessionClient(bus, serverId);
  ctx.cluster = { serverId, sessions: client, viewers: ctx.media ? remoteViewers(bus) : null };
  const relay = relayCabinets(bus, ctx.cabinets, serverId);
  const owner = new OwnerRole(ctx, ctx.cabinets, serverId, ctx.media ? ownerVideo(ctx, ctx.media) : undefined);
  const lease = new SessionLease({ databaseUrl, serverId, onAcquired: () => owner.activate(), onLost: () => owner.deactivate(), log });
  let alive: NodeJS.Timeout | undefined;
  let stopAuditSigner = () => {};
  return {
    ctx,
    owner,
    lease,
    start() {
      const sayAlive = () => bus.publish(AliveTopic, { server: serverId });
      alive = setInterval(sayAlive, ALIVE_MS);
      alive.unref();
      sayAlive();
      lease.start();
      // Every server signs: the advisory lock makes one of them do it per head.
      stopAuditSigner = startAuditSigner(ctx.db, ctx.auditKey, witnessFileOf(config.auditKeyFile), (error) =>
        log(`signing the audit head failed: ${(error as Error).message}`),
      );
    },
    async stop() {
      clearInterval(alive);
      stopAuditSigner();
      await lease.stop();
      relay.stop();
      client.stop();
      await bus.close();
    },
  };
}
