/**
 * One server of a cluster (docs/scale.md): NATS as the bus, its own agent hub and sockets, the
 * cabinets it holds relayed to the bus and a mirror of every server's, sessions asked of each
 * shard's owner, and leases on the shards it owns (a session manager per owned shard runs here,
 * shard-owners.ts), with its media process streaming their machines (cluster-video.ts). Every server
 * says it is alive each second, so the shard owners notice one that died.
 */
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import { createBaseContext } from '../server.js';
import { startAuditSigner, witnessFileOf } from '../modules/audit/audit-signing.js';
import { relayCabinets } from './cabinet-relay.js';
import { ClusterCabinets } from './cluster-cabinets.js';
import { remoteViewers, shardVideo } from './cluster-video.js';
import { FilteredCabinets } from './filtered-cabinets.js';
import { relayFloor } from './floor-relay.js';
import { createNatsBus } from './nats-bus.js';
import { AliveTopic, ShardOwners } from './shard-owners.js';
import { ShardLeases } from './shard-leases.js';
import { SessionClient } from './session-rpc.js';
import { shardOf } from './shards.js';

const ALIVE_MS = 1_000;

export interface ClusterNode {
  ctx: AppContext;
  owners: ShardOwners;
  leases: ShardLeases;
  /** Bids for shards (call once HTTP listens). */
  start(): void;
  stop(): Promise<void>;
}

export async function createClusterNode(config: Config, databaseUrl: string, log: (line: string) => void = (line) => console.log(`[cluster] ${line}`)): Promise<ClusterNode> {
  const serverId = config.cluster.serverId;
  const bus = await createNatsBus({ servers: config.cluster.natsUrl, prefix: config.cluster.natsPrefix, name: serverId });
  const ctx = await createBaseContext(config, databaseUrl, bus);
  const machineOfPlayer = async (playerId: number) =>
    (await ctx.db.query<{ machine_id: number }>("SELECT machine_id FROM slot_sessions WHERE player_id = $1 AND status <> 'closed' LIMIT 1", [playerId])).rows[0]?.machine_id ?? null;
  const relay = relayCabinets(bus, ctx.cabinets, serverId);
  const mirror = new ClusterCabinets(bus, ctx.cabinets, serverId);
  const owners = new ShardOwners(ctx, mirror, serverId);
  // HAProxy sends a game socket to its shard's owner (launch/haproxy.ts): most calls are answered here.
  const client = new SessionClient(bus, serverId, machineOfPlayer, owners);
  const video = ctx.media
    ? shardVideo(ctx, ctx.media, new FilteredCabinets(mirror, (machineId) => owners.owns(shardOf(machineId))), (machineId) => owners.wantsStream(machineId))
    : null;
  if (video) owners.useVideo(video);
  ctx.cluster = {
    serverId,
    sessions: client,
    viewers: ctx.media ? remoteViewers(bus) : null,
    floor: relayFloor(client),
    cabinets: mirror,
    status: () => ({ ...owners.status(), relayed: client.relayedSockets() }),
  };
  const leases = new ShardLeases({ databaseUrl, serverId, onAcquired: (shard, epoch) => owners.activate(shard, epoch), onLost: (shard) => owners.deactivate(shard), log });
  let alive: NodeJS.Timeout | undefined;
  let stopAuditSigner = () => {};
  return {
    ctx,
    owners,
    leases,
    start() {
      const sayAlive = () => bus.publish(AliveTopic, { server: serverId });
      alive = setInterval(sayAlive, ALIVE_MS);
      alive.unref();
      sayAlive();
      owners.start();
      // The mirror learns the machines every server already holds (the console's floor shows them all).
      mirror.sync();
      leases.start();
      // Every server signs: the advisory lock makes one of them do it per head.
      stopAuditSigner = startAuditSigner(ctx.db, ctx.auditKey, witnessFileOf(config.auditKeyFile), (error) =>
        log(`signing the audit head failed: ${(error as Error).message}`),
      );
    },
    async stop() {
      clearInterval(alive);
      stopAuditSigner();
      await leases.stop();
      owners.stop();
      video?.stop();
      mirror.stop();
      relay.stop();
      client.stop();
      await bus.close();
    },
  };
}
