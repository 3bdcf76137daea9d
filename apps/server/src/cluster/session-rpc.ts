/**
 * Sessions in a cluster. The session manager runs on one server only, the owner (owner-role.ts);
 * every server's game and REST routes talk to it through `SessionClient`, a request on
 * `sessions.call` with the player's id and, for the game socket, a handle `{ server, id }`. The
 * owner stands a `RemoteConnection` in for that socket: what the manager sends it goes back on
 * `conn.<server>`, where the front server hands it to the real socket.
 *
 * Exactly once: a request that found no owner (none yet, or one taking over) never ran, so it is
 * asked again until an owner answers; one that timed out may have run, so it is not repeated and the
 * player gets 50300 (spins and money commands carry ids the cabinet runs at most once anyway).
 * A request still waiting when another server announces it owns went to the old owner, which died
 * with it (NATS hands a request to a killed server until it notices the closed connection): it is
 * asked again of the new one at once instead of waiting out the timeout. Asking twice is safe: joins,
 * leaves and the dialog's kick/cancel are idempotent, spins and bet/autoplay carry command ids, and
 * cash-ins an idempotency key; the new owner knows only what the database and the cabinets say.
 */
import { randomUUID } from 'node:crypto';
import { Code, type AutoplayStops, type GameServerEvents, type SessionNotification, type VideoType } from '@reel/protocol';
import { BusError, type Bus } from '../lib/bus.js';
import { AppError } from '../lib/errors.js';
import type { GameConnection, SessionService } from '../modules/sessions/types.js';
import { RemoteError } from './nats-bus.js';

export const SessionTopic = {
  call: 'sessions.call',
  connection: (server: string) => `conn.${server}`,
  /** The owner says it owns, every second: `{ owner }`. */
  owner: 'cluster.owner',
} as const;

export interface ConnectionHandle {
  server: string;
  id: string;
}

export type SessionMethod = Exclude<keyof SessionService, 'join' | 'disconnect'> | 'join' | 'disconnect';

export interface SessionCall {
  method: SessionMethod;
  args: unknown[];
  conn?: ConnectionHandle;
}

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
const CALL_TIMEOUT_MS = 15_000;

/** Close code that makes the web app's game channel reconnect and join again (RFC 6455 "service restart"). */
const SERVICE_RESTART = 1012;

const OWNER_CHANGED = Symbol('owner changed');

export class SessionClient implements SessionService {
  private readonly connections = new Map<string, { conn: GameConnection; owner: string | null }>();
  /** The owner last announced; null until the first announcement. */
  private owner: string | null = null;
  private readonly ownerChangeWaiters = new Set<() => void>();
  private readonly ids = new WeakMap<GameConnection, string>();
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly bus: Bus,
    private readonly server: string,
  ) {
    this.offs.push(
      bus.subscribe(SessionTopic.connection(server), (message) => {
        const m = message as ConnectionMessage;
        const entry = this.connections.get(m.id);
        if (!entry) return;
        if ('close' in m) entry.conn.close(m.close.code, m.close.reason);
        else entry.conn.send(m.event, m.data as never);
      }),
      bus.subscribe(SessionTopic.owner, (message) => this.ownerIs((message as { owner: string }).owner)),
    );
  }

  stop() {
    for (const off of this.offs.splice(0)) off();
  }

  /** Game sockets joined under another owner are unknown to this one: they reconnect and join again. */
  private ownerIs(owner: string) {
    const previous = this.owner;
    this.owner = owner;
    if (previous !== null && previous !== owner) for (const wake of this.ownerChangeWaiters) wake();
    for (const [id, entry] of [...this.connections]) {
      if (entry.owner && entry.owner !== owner) {
        this.connections.delete(id);
        entry.conn.close(SERVICE_RESTART, 'session owner changed');
      }
    }
  }

  private async call(method: SessionMethod, args: unknown[], conn?: ConnectionHandle): Promise<SessionReply> {
    const deadline = Date.now() + OWNER_WAIT_MS;
    for (;;) {
      try {
        const reply = await this.untilOwnerChanges(this.bus.request(SessionTopic.call, { method, args, conn } satisfies SessionCall, { timeoutMs: CALL_TIMEOUT_MS }));
        if (reply !== OWNER_CHANGED) return reply as SessionReply;
        if (Date.now() > deadline) throw new AppError(Code.MachineNoAnswer, 503);
        continue;
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (error instanceof RemoteError) throw toAppError(error);
        const noOwner = error instanceof BusError && error.reason === 'no_responder';
        if (!noOwner || Date.now() > deadline) {
          console.warn(`[cluster] ${method} of player ${String(args[0])}: ${(error as Error).message}`);
          throw new AppError(Code.MachineNoAnswer, 503);
        }
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }

  /** The answer, or OWNER_CHANGED when another server takes the sessions over first (a late answer is dropped). */
  private async untilOwnerChanges<T>(request: Promise<T>): Promise<T | typeof OWNER_CHANGED> {
    let wake = () => {};
    const changed = new Promise<typeof OWNER_CHANGED>((resolve) => (wake = () => resolve(OWNER_CHANGED)));
    this.ownerChangeWaiters.add(wake);
    request.catch(() => {});
    try {
      return await Promise.race([request, changed]);
    } finally {
      this.ownerChangeWaiters.delete(wake);
    }
  }

  private async value(method: SessionMethod, ...args: unknown[]) {
    return (await this.call(method, args)).value;
  }

  async join(playerId: number, machineId: number, conn: GameConnection) {
    let id = this.ids.get(conn);
    if (!id) {
      id = randomUUID();
      this.ids.set(conn, id);
    }
    this.connections.set(id, { conn, owner: null });
    const reply = await this.call('join', [playerId, machineId], { server: this.server, id });
    const entry = this.connections.get(id);
    if (entry) entry.owner = reply.owner;
  }

  async disconnect(playerId: number, conn: GameConnection) {
    const id = this.ids.get(conn);
    if (!id || !this.connections.delete(id)) return;
    await this.call('disconnect', [playerId], { server: this.server, id });
  }

  async leave(playerId: number) {
    await this.value('leave', playerId);
  }
  async kick(playerId: number, machineId: number, ip: string) {
    await this.value('kick', playerId, machineId, ip);
  }
  async cancel(playerId: number, machineId: number) {
    await this.value('cancel', playerId, machineId);
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
  async openSessionOf(playerId: number) {
    return (await this.value('openSessionOf', playerId)) as SessionNotification | null;
  }
}

/** A coded failure of the owner, as the route would have thrown it there. */
function toAppError(error: RemoteError): AppError {
  const { code, httpStatus, params, message } = error.details as { code?: unknown; httpStatus?: unknown; params?: unknown; message: string };
  if (typeof code === 'number' && typeof httpStatus === 'number') return new AppError(code, httpStatus, (params ?? {}) as Record<string, string>, message);
  return new AppError(Code.InternalError, 500);
}
