/**
 * Pub/sub between the parts of the server. In-process by default; the interface is what a Redis or
 * NATS adapter implements when several servers run.
 */
import { EventEmitter } from 'node:events';

export interface Bus {
  publish(topic: string, message: unknown): void;
  /** Returns an unsubscribe function. */
  subscribe(topic: string, handler: (message: unknown) => void): () => void;
  /** Every message on every topic (a pattern subscription on Redis or NATS). */
  subscribeAll(handler: (topic: string, message: unknown) => void): () => void;
}

const ALL = Symbol('all');

export function createLocalBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
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
  };
}

/** Topic names, one place. */
export const Topic = {
  /** Messages for one player: `{ event, data }` of the notification channel. */
  player: (playerId: number) => `player.${playerId}`,
  /** Messages for every lobby viewer: `{ event: 'machine' | 'jackpot', data }`. */
  lobby: 'lobby',
  tokenRevoked: 'auth.token-revoked',
} as const;
