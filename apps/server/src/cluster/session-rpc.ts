/**
 * Sessions in a cluster. Each shard's session manager runs on the server owning the shard
 * (shard-owners.ts); every server's game and REST routes talk to it through `SessionClient`, a
 * request on `sessions.call.<shard>` with the player's id and, for the game socket, a handle
 * `{ server, id }`. The owner stands a `RemoteConnection` in for that socket: what the manager sends
 * it goes back on `conn.<server>`, where the front server hands it to the real socket. A call on a
 * machine (join, kick, the console's floor actions) goes to that machine's shard; a call on a player
 * goes to the shard of the machine the player joined here, or else of the player's open session in
 * the database.
 *
 * Exactly once: a request that found no owner (none yet, or one taking over) never ran, so it is
 * asked again until an owner answers; one that timed out may have run, so it is not repeated and the
 * player gets 50300 (spins and money commands carry ids the cabinet runs at most once anyway).
 * A request still waiting when another server announces it owns the shard went to the old owner,
 * which died with it (NATS hands a request to a killed server until it notices the closed
 * connection): it is asked again of the new one at once instead of waiting out the timeout. Asking
 * twice is safe: joins, leaves and the dialog's kick/cancel are idempotent, spins and bet/autoplay
 * carry command ids, and cash-ins an idempotency key; the new owner knows only what the database and
 * the cabinets say.
 */
import { randomUUID } from 'node:crypto';
import { Code, type AutoplayStops, type GameServerEvents, type SessionNotification, type VideoType } from '@reel/protocol';
import { BusError, type Bus } from '../lib/bus.js';
import { AppError } from '../lib/errors.js';
import { COMMAND_TIMEOUT_MS, type GameConnection, type SessionService } from '../modules/sessions/types.js';
import { RemoteError } from './nats-bus.js';
import { OwnerTable } from './owner-table.js';
import { shardOf } from './shards.js';

export const SessionTopic = {
  call: (shard: number) => `sessions.call.${shard}`,
  connection: (server: string) => `conn.${server}`,
  /** Every server says which shards it owns, every second and at once when that changes. */
  owner: 'cluster.owner',
} as const;

/** `shards`: [shard, epoch] pairs; a higher epoch of a shard is a later owner (cluster_shards). */
export interface OwnerAnnouncement {
  owner: string;
  shards: [number, number][];
}

export interface ConnectionHandle {
  server: string;
  id: string;
}

/** What the console asks of a machine's session manager (floor-relay.ts). */
export type FloorMethod = 'isHeld' | 'kickByStaff' | 'cashOutByStaff' | 'publishMachine' | 'sendEmergencyStop' | 'staffVideoGrant' | 'handPayPaid';

export type SessionMethod = keyof SessionService | FloorMethod;

export interface SessionCall {
  method: SessionMethod;
  args: unknown[];
  conn?: ConnectionHandle;
}

/**
 * The shards this very server owns (shard-owners.ts): a call on one of them is answered here,
 * without the bus, and a socket joined here is the session's own connection. `call` resolves
 * undefined when the shard is not served here (not owned, still starting or stopping): then the
 * bus decides, as for any other shard.
 */
export interface LocalOwner {
  call(shard: number, call: SessionCall, conn?: GameConnection): Promise<SessionReply | undefined>;
}

/** A game socket: the real one, and how its shard's owner on another server names it. */
interface SocketRef {
  handle: ConnectionHandle;
  conn: GameConnection;
}

/** The machine of a player's open session (the database), or null when none. */
type PlayerMachineLookup = (playerId: number) => Promise<number | null>;

export type ConnectionMessage =
  | { id: string; event: keyof GameServerEvents; data: unknown }
  | { id: string; close: { code: number; reason: string } };

/** The answer: the manager's value and which server owns (a socket joined under another owner is stale). */
export interface SessionReply {
  owner: string;
  value: unknown;
}

const RETRY_MS = 200;
/** Longer than a failover takes (docs/scale.md); then the player is told the machine does not answer. */
const OWNER_WAIT_MS = 20_000;
/**
 * Longer than a live owner's own waits for a play command (session-play.ts: the waits before it, for
 * the meters' check and the games being recorded, then the cabinet's answer, COMMAND_TIMEOUT_MS
 * each), so the owner answers,
 * with the result or its own error, before the caller gives up with 50300: at 15 s, a spin asked of
 * a shard's new owner during a failover timed out while that owner still waited for the cabinet (the
 * floor bench). A dead owner does not hold a call this long: its successor's announcement asks again.
 */
export const CALL_TIMEOUT_MS = 2 * COMMAND_TIMEOUT_MS + 6_000;

/** Close code that makes the web app's game channel reconnect and join again (RFC 6455 "service restart"). */
const SERVICE_RESTART = 1012;

const OWNER_CHANGED = Symbol('owner changed');

export class SessionClient implements SessionService {
  private readonly connections = new Map<string, { conn: GameConnection; shard: number; owner: string | null }>();
  private readonly owners = new OwnerTable();
  private readonly ownerChangeWaiters = new Map<number, Set<() => void>>();
  /** The shard of the machine each player joined through this server (a hint: the database decides). */
  private readonly playerShards = new Map<number, number>();
  private readonly ids = new WeakMap<GameConnection, string>();
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly bus: Bus,
    private readonly server: string,
    private readonly machineOfPlayer: PlayerMachineLookup,
    private readonly local: LocalOwner | null = null,
  ) {
    this.offs.push(
      bus.subscribe(SessionTopic.connection(server), (message) => {
        const m = message as ConnectionMessage;
        const entry = this.connections.get(m.id);
        if (!entry) return;
        if ('close' in m) entry.conn.close(m.close.code, m.close.reason);
        else entry.conn.send(m.event, m.data as never);
      }),
      bus.subscribe(SessionTopic.owner, (message) => this.announced(message as OwnerAnnouncement)),
    );
  }

  stop() {
    for (const off of this.offs.splice(0)) off();
  }

  /** Game sockets joined here whose session another server owns (`GET /check`). */
  relayedSockets() {
    let n = 0;
    for (const entry of this.connections.values()) if (entry.owner !== null && entry.owner !== this.server) n++;
    return n;
  }

  /** Game sockets joined under another owner of their shard are unknown to this one: they reconnect and join again. */
  private announced(announcement: OwnerAnnouncement) {
    for (const { shard, owner, previous } of this.owners.apply(announcement)) {
      if (previous === undefined) continue;
      for (const wake of this.ownerChangeWaiters.get(shard) ?? []) wake();
      for (const [id, entry] of [...this.connections]) {
        if (entry.shard === shard && entry.owner && entry.owner !== owner) {
          this.connections.delete(id);
          entry.conn.close(SERVICE_RESTART, 'session owner changed');
        }
      }
    }
  }

  /** Asks the owner of `shard`, waiting through a failover (exactly-once rules: the file comment). */
  async ask(shard: number, method: SessionMethod, args: unknown[], socket?: SocketRef): Promise<SessionReply> {
    const deadline = Date.now() + OWNER_WAIT_MS;
    for (;;) {
      const here = await this.local?.call(shard, { method, args }, socket?.conn);
      if (here) return here;
      try {
        const conn = socket?.handle;
        const request = this.bus.request(SessionTopic.call(shard), { method, args, conn } satisfies SessionCall, { timeoutMs: CALL_TIMEOUT_MS });
        const reply = await this.untilOwnerChanges(shard, request);
        if (reply !== OWNER_CHANGED) return reply as SessionReply;
        if (Date.now() > deadline) throw new AppError(Code.MachineNoAnswer, 503);
        continue;
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (error instanceof RemoteError) throw toAppError(error);
        const noOwner = error instanceof BusError && error.reason === 'no_responder';
        if (!noOwner || Date.now() > deadline) {
          console.warn(`[cluster] ${method} on shard ${shard} (${String(args[0])}): ${(error as Error).message}`);
          throw new AppError(Code.MachineNoAnswer, 503);
        }
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }

  /** The answer, or OWNER_CHANGED when another server takes the shard over first (a late answer is dropped). */
  private async untilOwnerChanges<T>(shard: number, request: Promise<T>): Promise<T | typeof OWNER_CHANGED> {
    let wake = () => {};
    const changed = new Promise<typeof OWNER_CHANGED>((resolve) => (wake = () => resolve(OWNER_CHANGED)));
    const waiters = this.ownerChangeWaiters.get(shard) ?? new Set();
    this.ownerChangeWaiters.set(shard, waiters);
    waiters.add(wake);
    request.catch(() => {});
    try {
      return await Promise.race([request, changed]);
    } finally {
      waiters.delete(wake);
    }
  }

  /** A call on the player's session: the shard joined here, else the open session's in the database. */
  private async value(method: SessionMethod, playerId: number, ...rest: unknown[]) {
    const args = [playerId, ...rest];
    const hinted = this.playerShards.get(playerId);
    const shard = hinted ?? (await this.shardInRecords(playerId));
    if (shard === null) throw new AppError(Code.NoOpenSession, 404);
    try {
      return (await this.ask(shard, method, args)).value;
    } catch (error) {
      // The player may have moved to a machine of another shard through another server.
      if (hinted === undefined || !(error instanceof AppError) || error.code !== Code.NoOpenSession) throw error;
      const actual = await this.shardInRecords(playerId);
      if (actual === null || actual === hinted) throw error;
      return (await this.ask(actual, method, args)).value;
    }
  }

  private async shardInRecords(playerId: number) {
    const machineId = await this.machineOfPlayer(playerId);
    if (machineId === null) {
      this.playerShards.delete(playerId);
      return null;
    }
    const shard = shardOf(machineId);
    this.playerShards.set(playerId, shard);
    return shard;
  }

  async join(playerId: number, machineId: number, conn: GameConnection) {
    let id = this.ids.get(conn);
    if (!id) {
      id = randomUUID();
      this.ids.set(conn, id);
    }
    const shard = shardOf(machineId);
    this.playerShards.set(playerId, shard);
    this.connections.set(id, { conn, shard, owner: null });
    const reply = await this.ask(shard, 'join', [playerId, machineId], { handle: { server: this.server, id }, conn });
    const entry = this.connections.get(id);
    if (entry) entry.owner = reply.owner;
  }

  async disconnect(playerId: number, conn: GameConnection) {
    const id = this.ids.get(conn);
    const entry = id ? this.connections.get(id) : undefined;
    if (!id || !entry) return;
    this.connections.delete(id);
    await this.ask(entry.shard, 'disconnect', [playerId], { handle: { server: this.server, id }, conn: entry.conn });
  }

  async leave(playerId: number) {
    await this.value('leave', playerId);
  }
  async kick(playerId: number, machineId: number, ip: string) {
    await this.ask(shardOf(machineId), 'kick', [playerId, machineId, ip]);
  }
  async cancel(playerId: number, machineId: number) {
    await this.ask(shardOf(machineId), 'cancel', [playerId, machineId]);
  }
  async cashIn(playerId: number, amountCents: number, idempotencyKey: string) {
    await this.value('cashIn', playerId, amountCents, idempotencyKey);
  }
  async cashOut(playerId: number) {
    await this.value('cashOut', playerId);
  }
  async spin(playerId: number, commandId: string) {
    return this.value('spin', playerId, commandId);
  }
  async setBetLevel(playerId: number, commandId: string, level: number) {
    return this.value('setBetLevel', playerId, commandId, level);
  }
  async autoplay(playerId: number, commandId: string, on: boolean, stops?: AutoplayStops) {
    return this.value('autoplay', playerId, commandId, on, stops);
  }
  async renewStream(playerId: number) {
    await this.value('renewStream', playerId);
  }
  async setBand(playerId: number, bandId: string) {
    await this.value('setBand', playerId, bandId);
  }
  async setVideoType(playerId: number, videoType: VideoType) {
    await this.value('setVideoType', playerId, videoType);
  }
  /** The reconnect dialog: always where the database says the session is. */
  async openSessionOf(playerId: number) {
    const shard = await this.shardInRecords(playerId);
    if (shard === null) return null;
    return (await this.ask(shard, 'openSessionOf', [playerId])).value as SessionNotification | null;
  }
}

/** A coded failure of the owner, as the route would have thrown it there. */
function toAppError(error: RemoteError): AppError {
  const { code, httpStatus, params, message } = error.details as { code?: unknown; httpStatus?: unknown; params?: unknown; message: string };
  if (typeof code === 'number' && typeof httpStatus === 'number') return new AppError(code, httpStatus, (params ?? {}) as Record<string, string>, message);
  return new AppError(Code.InternalError, 500);
}
