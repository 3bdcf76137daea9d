/**
 * Revocations made outside the server process (the operator command line's ban, password reset)
 * reach the server's open sockets at once through PostgreSQL NOTIFY, instead of at the sockets'
 * next heartbeat token check. The server republishes each one on its bus as `Topic.tokenRevoked`,
 * where the game and notification channels close the player's sockets. A notification sent while
 * no server listens is lost; the heartbeat check still catches that case.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable, Tx } from '../../db/pool.js';
import { Topic, type Bus } from '../../lib/bus.js';

const REVOCATION_CHANNEL = 'reel_tokens_revoked';
const RECONNECT_MS = 1_000;

/** Announces that every token of `playerId` was revoked; inside a transaction it is sent at commit. */
export async function announceRevocation(db: Queryable, playerId: number) {
  await db.query('SELECT pg_notify($1, $2)', [REVOCATION_CHANNEL, JSON.stringify({ playerId })]);
}

/** LISTENs on one pooled connection for as long as the server runs; reconnects when it drops. */
export function listenForRevocations(db: Db, bus: Bus, log: FastifyBaseLogger) {
  let client: Tx | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const onNotification = (message: { channel: string; payload?: string }) => {
    if (message.channel !== REVOCATION_CHANNEL || !message.payload) return;
    try {
      const { playerId } = JSON.parse(message.payload) as { playerId?: unknown };
      if (Number.isSafeInteger(playerId)) bus.publish(Topic.tokenRevoked, { playerId });
    } catch {
      // Not one of ours: nothing to do.
    }
  };

  const drop = (error?: Error) => {
    const current = client;
    client = undefined;
    if (current) {
      current.off('notification', onNotification);
      current.release(error ?? true);
    }
    if (!closed) {
      retry = setTimeout(() => void connect(), RECONNECT_MS);
      retry.unref();
    }
  };

  const connect = async () => {
    if (closed) return;
    try {
      const next = await db.connect();
      if (closed) return next.release(true);
      client = next;
      next.on('notification', onNotification);
      next.once('error', (error: Error) => {
        log.warn({ err: error }, 'revocation listener lost its connection');
        if (client === next) drop(error);
      });
      await next.query(`LISTEN ${REVOCATION_CHANNEL}`);
    } catch (error) {
      if (!closed) log.warn({ err: error }, 'revocation listener could not connect');
      drop(error as Error);
    }
  };

  const started = connect();
  return {
    /** Resolves once the first LISTEN is in place (or failed and a retry is scheduled). */
    ready: started,
    async close() {
      closed = true;
      clearTimeout(retry);
      await started;
      const current = client;
      client = undefined;
      current?.off('notification', onNotification);
      current?.release(true);
    },
  };
}
