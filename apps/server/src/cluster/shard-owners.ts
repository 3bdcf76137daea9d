/**
 * What a cluster server runs for the shards it owns (docs/scale.md): one session manager per shard
 * (timers, settlement, game records) over the part of the cabinet mirror that is its shard,
 * answering `sessions.call.<shard>` for every server's routes. A shard's manager starts when its
 * lease is won and stops (timers first) when it is lost; a new owner resumes the shard's open
 * sessions from the database and the cabinets' meters, as after a restart, while the other shards
 * run on untouched. Every second the server says which shards it owns (with their epochs) and
 * which servers went silent: their machines go offline, their players' sockets count as dropped.
 */
import type { AppContext } from '../context.js';
import { SessionManager } from '../modules/sessions/session-manager.js';
import type { GameConnection, VideoPort } from '../modules/sessions/types.js';
import type { ClusterCabinets } from './cluster-cabinets.js';
import type { ShardVideo } from './cluster-video.js';
import { FilteredCabinets } from './filtered-cabinets.js';
import { SessionTopic, type ConnectionHandle, type ConnectionMessage, type LocalOwner, type OwnerAnnouncement, type SessionCall, type SessionReply } from './session-rpc.js';
import { SHARD_COUNT, shardOf } from './shards.js';

const ANNOUNCE_MS = 1_000;
/** A server silent this long is taken for dead: its machines go offline, its players' sockets are gone. */
const SERVER_SILENT_MS = 3_500;
export const AliveTopic = 'cluster.alive';

interface Remote {
  conn: GameConnection;
  playerId: number;
  server: string;
}

interface OwnedShard {
  epoch: number;
  manager: SessionManager;
  cabinets: FilteredCabinets;
  remotes: Map<string, Remote>;
  /** Answering calls: from when its manager has started until it begins to stop. */
  serving: boolean;
  offs: (() => void)[];
}

export class ShardOwners implements LocalOwner {
  private readonly shards = new Map<number, OwnedShard>();
  private readonly lastSeen = new Map<string, number>();
  private readonly offs: (() => void)[] = [];
  private announcer: NodeJS.Timeout | undefined;
  private video: ShardVideo | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly mirror: ClusterCabinets,
    private readonly serverId: string,
  ) {}

  /** The server's video (set once its media process is known; shards started before have none). */
  useVideo(video: ShardVideo) {
    this.video = video;
  }

  start() {
    this.offs.push(this.ctx.bus.subscribe(AliveTopic, (message) => this.lastSeen.set((message as { server: string }).server, Date.now())));
    this.announcer = setInterval(() => {
      this.announce();
      this.sweep();
    }, ANNOUNCE_MS);
    this.announcer.unref();
  }

  stop() {
    clearInterval(this.announcer);
    for (const off of this.offs.splice(0)) off();
  }

  owns(shard: number) {
    return this.shards.has(shard);
  }

  /** The shard manager of a machine owned here (tests and the benchmark look at it). */
  managerOf(machineId: number): SessionManager | undefined {
    return this.shards.get(shardOf(machineId))?.manager;
  }

  /** What `GET /check` reports: the shards owned here and their open sessions. */
  status() {
    let sessions = 0;
    for (const owned of this.shards.values()) sessions += owned.manager.floorSessions().length;
    return { shards: this.shards.size, sessions };
  }

  /** Whether a machine owned here should keep streaming (held, or watched by staff). */
  wantsStream(machineId: number) {
    return this.managerOf(machineId)?.wantsStream(machineId) ?? false;
  }

  async activate(shard: number, epoch: number) {
    const { bus } = this.ctx;
    const cabinets = new FilteredCabinets(this.mirror, (machineId) => shardOf(machineId) === shard);
    const video: VideoPort = this.video ?? { grant: async () => null };
    const manager = new SessionManager(this.ctx, cabinets, video, this.ctx.config.sessions);
    const owned: OwnedShard = { epoch, manager, cabinets, remotes: new Map(), serving: false, offs: [] };
    this.shards.set(shard, owned);
    try {
      await manager.start({ index: shard, count: SHARD_COUNT });
    } catch (error) {
      this.shards.delete(shard);
      cabinets.stop();
      throw error;
    }
    owned.offs.push(bus.respond(SessionTopic.call(shard), (message) => this.handle(shard, owned, message as SessionCall), { group: 'owner' }));
    owned.serving = true;
    if (this.video) owned.offs.push(this.video.serve(shard));
    this.announce();
    // Every server says which machines of the shard it holds; each 'connected' runs the meter check
    // and re-sends the commands left pending, as when a cabinet reconnects.
    this.mirror.sync(shard);
  }

  async deactivate(shard: number) {
    const owned = this.shards.get(shard);
    if (!owned) return;
    owned.serving = false;
    for (const off of owned.offs.splice(0)) off();
    owned.manager.beginShutdown();
    await owned.manager.stop();
    owned.cabinets.stop();
    owned.remotes.clear();
    this.shards.delete(shard);
    this.announce();
  }

  private announce() {
    const message: OwnerAnnouncement = { owner: this.serverId, shards: [...this.shards].map(([shard, owned]) => [shard, owned.epoch]) };
    this.ctx.bus.publish(SessionTopic.owner, message);
  }

  /** A call of this server's own routes (LocalOwner): `conn` is the game socket itself. */
  async call(shard: number, call: SessionCall, conn?: GameConnection): Promise<SessionReply | undefined> {
    const owned = this.shards.get(shard);
    if (!owned?.serving) return undefined;
    return this.handle(shard, owned, call, conn);
  }

  /** `local`: the socket of a call from this server; otherwise `call.conn` names one on another server. */
  private async handle(shard: number, owned: OwnedShard, call: SessionCall, local?: GameConnection): Promise<SessionReply> {
    const { manager } = owned;
    if (this.shards.get(shard) !== owned) throw new Error(`not the owner of shard ${shard}`);
    const [playerId] = call.args as [number];
    let value: unknown = null;
    if (call.method === 'join') {
      const conn = local ?? this.remote(owned, call.conn!, playerId);
      await manager.join(playerId, call.args[1] as number, conn);
    } else if (call.method === 'disconnect') {
      if (local) await manager.disconnect(playerId, local);
      else {
        const key = keyOf(call.conn!);
        const remote = owned.remotes.get(key);
        owned.remotes.delete(key);
        if (remote) await manager.disconnect(playerId, remote.conn);
      }
    } else {
      const method = manager[call.method] as (...args: unknown[]) => unknown;
      value = (await method.apply(manager, call.args)) ?? null;
    }
    return { owner: this.serverId, value };
  }

  /** The stand-in for a game socket on another server (the same object for the same socket). */
  private remote(owned: OwnedShard, handle: ConnectionHandle, playerId: number): GameConnection {
    const key = keyOf(handle);
    const known = owned.remotes.get(key);
    if (known) return known.conn;
    const topic = SessionTopic.connection(handle.server);
    const publish = (message: ConnectionMessage) => this.ctx.bus.publish(topic, message);
    const conn: GameConnection = {
      send: (event, data) => publish({ id: handle.id, event, data }),
      close: (code, reason) => {
        owned.remotes.delete(key);
        publish({ id: handle.id, close: { code, reason } });
      },
    };
    owned.remotes.set(key, { conn, playerId, server: handle.server });
    return conn;
  }

  /** Servers gone silent: their machines go offline and their players' sockets count as dropped. */
  private sweep() {
    const now = Date.now();
    const servers = new Set<string>(this.mirror.holders().values());
    for (const owned of this.shards.values()) for (const remote of owned.remotes.values()) servers.add(remote.server);
    for (const server of servers) {
      if (server === this.serverId) continue;
      const seen = this.lastSeen.get(server);
      if (seen === undefined) {
        this.lastSeen.set(server, now);
        continue;
      }
      if (now - seen < SERVER_SILENT_MS) continue;
      this.lastSeen.delete(server);
      console.warn(`[cluster] ${server} is silent: its machines go offline and its players' sessions wait in grace`);
      this.mirror.dropServer(server);
      for (const owned of this.shards.values()) {
        for (const [key, remote] of [...owned.remotes]) {
          if (remote.server !== server) continue;
          owned.remotes.delete(key);
          void owned.manager.disconnect(remote.playerId, remote.conn).catch(() => {});
        }
      }
    }
  }
}

const keyOf = (handle: ConnectionHandle) => `${handle.server}/${handle.id}`;
