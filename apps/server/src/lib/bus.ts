/**
 * Pub/sub and request/reply between the parts of the server. In-process by default
 * (`createLocalBus`); with several servers the same interface runs over NATS (cluster/nats-bus.ts).
 */
import { EventEmitter } from 'node:events';

export interface Bus {
  publish(topic: string, message: unknown): void;
  /** Returns an unsubscribe function. */
  subscribe(topic: string, handler: (message: unknown) => void): () => void;
  /** Every message on every topic (a pattern subscription on Redis or NATS). */
  subscribeAll(handler: (topic: string, message: unknown) => void): () => void;
  /**
   * Every topic of a family, `<family>.<name>` (`player` → `player.42`): a wildcard subscription on
   * NATS, so a server is sent only those, not every message on the bus.
   */
  subscribeFamily(family: string, handler: (topic: string, message: unknown) => void): () => void;
  /**
   * Asks whoever answers `topic` (one responder) and resolves with its answer; rejects with
   * `BusNoResponder` when nobody answers the topic and `BusTimeout` after `timeoutMs`.
   */
  request(topic: string, message: unknown, opts?: { timeoutMs?: number }): Promise<unknown>;
  /**
   * Answers requests on `topic`. With `group`, one member of the group answers each request (NATS
   * queue group); without it, the one responder of that topic. Returns an unsubscribe function.
   */
  respond(topic: string, handler: (message: unknown) => Promise<unknown>, opts?: { group?: string }): () => void;
  /** Sends what is buffered and disconnects (no-op in process). */
  close(): Promise<void>;
}

export class BusError extends Error {
  constructor(
    readonly reason: 'no_responder' | 'timeout' | 'remote',
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

const ALL = Symbol('all');

export function createLocalBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const responders = new Map<string, (message: unknown) => Promise<unknown>>();
  return {
    publish(topic, message) {
      emitter.emit(topic, message);
      emitter.emit(ALL, topic, message);
    },
    subscribe(topic, handler) {
      emitter.on(topic, handler);
      return () => void emitter.off(topic, handler);
    },
    subscribeAll(handler) {
      emitter.on(ALL, handler);
      return () => void emitter.off(ALL, handler);
    },
    subscribeFamily(family, handler) {
      const prefix = `${family}.`;
      const member = (topic: string, message: unknown) => {
        if (topic.startsWith(prefix) && !topic.includes('.', prefix.length)) handler(topic, message);
      };
      emitter.on(ALL, member);
      return () => void emitter.off(ALL, member);
    },
    async request(topic, message, opts = {}) {
      const handler = responders.get(topic);
      if (!handler) throw new BusError('no_responder', `nobody answers ${topic}`);
      const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new BusError('timeout', `${topic} did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        return await Promise.race([handler(message), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    respond(topic, handler) {
      responders.set(topic, handler);
      return () => void (responders.get(topic) === handler && responders.delete(topic));
    },
    async close() {},
  };
}

/** Topic names, one place. */
const PLAYER_FAMILY = 'player';

export const Topic = {
  /** Messages for one player: `{ event, data }` of the notification channel. */
  player: (playerId: number) => `${PLAYER_FAMILY}.${playerId}`,
  /** Every player's topic (`subscribeFamily`). */
  players: PLAYER_FAMILY,
  /** Messages for every lobby viewer: `{ event: 'machine' | 'jackpot', data }`. */
  lobby: 'lobby',
  tokenRevoked: 'auth.token-revoked',
  /** A player wrote in the support chat: `{ playerId }` (the staff channel tells the console). */
  staffChat: 'chat.staff',
  /** A machine's queue changed: `{ machineId, length }` (modules/queue; the lobby shows the length). */
  queueChanged: 'queue.changed',
} as const;
