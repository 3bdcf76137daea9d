/**
 * What the server holding the session lease runs: the session manager (timers, settlement, game
 * records) over a mirror of every cabinet in the cluster, answering `sessions.call` for every
 * server's routes. Started when the lease is won, stopped (timers first) when it is lost; a new
 * owner resumes every open session from the database and the cabinets' meters, as after a restart.
 */
import type { AppContext } from '../context.js';
import type { AgentHub } from '../modules/cabinets/agent-hub.js';
import { SessionManager } from '../modules/sessions/session-manager.js';
import type { GameConnection, VideoPort } from '../modules/sessions/types.js';
import { ClusterCabinets } from './cluster-cabinets.js';
import { SessionTopic, type ConnectionHandle, type ConnectionMessage, type SessionCall, type SessionReply } from './session-rpc.js';

const ANNOUNCE_MS = 1_000;
/** A server silent this long is taken for dead: its machines go offline, its players' sockets are gone. */
const SERVER_SILENT_MS = 3_500;
export const AliveTopic = 'cluster.alive';

/** The owner's video port; `stop` ends what it started (listeners, timers) when the lease is lost. */
type OwnedVideo = VideoPort & { stop?(): void };

interface Remote {
  conn: GameConnection;
  playerId: number;
  server: string;
}

export class OwnerRole {
  private manager: SessionManager | null = null;
  private cabinets: ClusterCabinets | null = null;
  private readonly remotes = new Map<string, Remote>();
  private readonly lastSeen = new Map<string, number>();
  private offs: (() => void)[] = [];
  private announcer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly hub: AgentHub,
    private readonly serverId: string,
    private readonly makeVideo: (cabinets: ClusterCabinets, isHeld: (machineId: number) => boolean) => OwnedVideo = () => ({ grant: async () => null }),
  ) {}
  private video: OwnedVideo | null = null;

  get active() {
    return this.manager !== null;
  }

  /** The running manager (tests and the benchmark look at it). */
  get sessions() {
    return this.manager;
  }

  async activate() {
    const { bus } = this.ctx;
    const cabinets = new ClusterCabinets(bus, this.hub, this.serverId);
    const video = this.makeVideo(cabinets, (machineId) => this.manager?.isHeld(machineId) ?? false);
    this.video = video;
    const manager = new SessionManager(this.ctx, cabinets, video, this.ctx.config.sessions);
    this.cabinets = cabinets;
    this.manager = manager;
    this.ctx.sessions = manager;
    await manager.start();
    this.offs.push(
      bus.respond(SessionTopic.call, (message) => this.handle(message as SessionCall), { group: 'owner' }),
      bus.subscribe(AliveTopic, (message) => this.lastSeen.set((message as { server: string }).server, Date.now())),
    );
    const announce = () => {
      bus.publish(SessionTopic.owner, { owner: this.serverId });
      this.sweep();
    };
    this.announcer = setInterval(announce, ANNOUNCE_MS);
    this.announcer.unref();
    announce();
    // Every server says which machines it holds; each 'connected' runs the meter check and re-sends
    // the commands left pending, as when a cabinet reconnects.
    cabinets.sync();
  }

  async deactivate() {
    clearInterval(this.announcer);
    for (const off of this.offs.splice(0)) off();
    const manager = this.manager;
    this.manager = null;
    manager?.beginShutdown();
    await manager?.stop();
    this.video?.stop?.();
    this.video = null;
    this.cabinets?.stop();
    this.cabinets = null;
    this.remotes.clear();
  }

  private async handle(call: SessionCall): Promise<SessionReply> {
    const manager = this.manager;
    if (!manager) throw new Error('not the session owner');
    const [playerId] = call.args as [number];
    let value: unknown = null;
    if (call.method === 'join') {
      const conn = this.remote(call.conn!, playerId);
      await manager.join(playerId, call.args[1] as number, conn);
    } else if (call.method === 'disconnect') {
      const key = keyOf(call.conn!);
      const remote = this.remotes.get(key);
      this.remotes.delete(key);
      if (remote) await manager.disconnect(playerId, remote.conn);
    } else {
      const method = manager[call.method] as (...args: unknown[]) => unknown;
      value = (await method.apply(manager, call.args)) ?? null;
    }
    return { owner: this.serverId, value };
  }

  /** The stand-in for a game socket on another server (the same object for the same socket). */
  private remote(handle: ConnectionHandle, playerId: number): GameConnection {
    const key = keyOf(handle);
    const known = this.remotes.get(key);
    if (known) return known.conn;
    const topic = SessionTopic.connection(handle.server);
    const publish = (message: ConnectionMessage) => this.ctx.bus.publish(topic, message);
    const conn: GameConnection = {
      send: (event, data) => publish({ id: handle.id, event, data }),
      close: (code, reason) => {
        this.remotes.delete(key);
        publish({ id: handle.id, close: { code, reason } });
      },
    };
    this.remotes.set(key, { conn, playerId, server: handle.server });
    return conn;
  }

  /** Servers gone silent: their machines go offline and their players' sockets count as dropped. */
  private sweep() {
    const now = Date.now();
    const servers = new Set([...(this.cabinets?.holders().values() ?? []), ...[...this.remotes.values()].map((r) => r.server)]);
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
      this.cabinets?.dropServer(server);
      for (const [key, remote] of [...this.remotes]) {
        if (remote.server !== server) continue;
        this.remotes.delete(key);
        void this.manager?.disconnect(remote.playerId, remote.conn).catch(() => {});
      }
    }
  }
}

const keyOf = (handle: ConnectionHandle) => `${handle.server}/${handle.id}`;
