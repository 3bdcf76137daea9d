/**
 * The bus over NATS, for several servers (docs/scale.md). Topics become subjects under a prefix, so
 * several clusters (or parallel test runs) can share one NATS server without hearing each other.
 * Messages are JSON. Replies carry `{ ok, value }` or `{ ok: false, error }`, so a coded failure of
 * the answering server (an AppError's code and status) reaches the asking server intact.
 */
import { connect, ErrorCode, JSONCodec, type NatsConnection, type NatsError, type Subscription } from 'nats';
import { BusError, DEFAULT_REQUEST_TIMEOUT_MS, type Bus } from '../lib/bus.js';

/** A failure the answering side threw, as it travels: the error's message and own fields. */
interface RemoteErrorDetails {
  message: string;
  [field: string]: unknown;
}

export class RemoteError extends BusError {
  constructor(readonly details: RemoteErrorDetails) {
    super('remote', details.message);
  }
}

type Reply = { ok: true; value: unknown } | { ok: false; error: RemoteErrorDetails };

const codec = JSONCodec<unknown>();

interface NatsBusOptions {
  /** e.g. `nats://127.0.0.1:4222`, comma-separated for several. */
  servers: string;
  /** Subject prefix without the trailing dot, e.g. `reel` or `reel-t-1234`. */
  prefix: string;
  /** Shown in NATS' connection list. */
  name?: string;
}

interface NatsBus extends Bus {
  readonly connection: NatsConnection;
}

export async function createNatsBus(options: NatsBusOptions): Promise<NatsBus> {
  const nc = await connect({
    servers: options.servers.split(',').map((s) => s.trim()),
    name: options.name,
    // A NATS restart must not end the server: keep reconnecting, forever.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
  });
  const prefix = `${options.prefix}.`;
  const subject = (topic: string) => prefix + topic;
  // Requests live beside the pub/sub subjects, not under them: a `subscribeAll` (`prefix.>`) would
  // otherwise count as a responder, and a request nobody answers would time out instead of being
  // told at once that no responder exists (which the session client retries on).
  const requestSubject = (topic: string) => `${options.prefix}-rpc.${topic}`;
  const subscriptions = new Set<Subscription>();

  const track = (sub: Subscription) => {
    subscriptions.add(sub);
    return () => {
      subscriptions.delete(sub);
      sub.unsubscribe();
    };
  };

  const errorDetails = (error: unknown): RemoteErrorDetails => {
    if (error instanceof Error) return { ...(error as unknown as Record<string, unknown>), message: error.message, name: error.name };
    return { message: String(error) };
  };

  return {
    connection: nc,
    publish(topic, message) {
      nc.publish(subject(topic), codec.encode(message));
    },
    subscribe(topic, handler) {
      return track(
        nc.subscribe(subject(topic), {
          callback: (error, msg) => {
            if (!error) handler(codec.decode(msg.data));
          },
        }),
      );
    },
    subscribeAll(handler) {
      return track(
        nc.subscribe(`${prefix}>`, {
          callback: (error, msg) => {
            // Replies to requests travel on _INBOX subjects, never under the prefix.
            if (!error) handler(msg.subject.slice(prefix.length), codec.decode(msg.data));
          },
        }),
      );
    },
    subscribeFamily(family, handler) {
      return track(
        nc.subscribe(`${subject(family)}.*`, {
          callback: (error, msg) => {
            if (!error) handler(msg.subject.slice(prefix.length), codec.decode(msg.data));
          },
        }),
      );
    },
    async request(topic, message, opts = {}) {
      const timeout = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      let reply: Reply;
      try {
        const msg = await nc.request(requestSubject(topic), codec.encode(message), { timeout });
        reply = codec.decode(msg.data) as Reply;
      } catch (error) {
        const code = (error as NatsError).code;
        if (code === ErrorCode.NoResponders) throw new BusError('no_responder', `nobody answers ${topic}`);
        if (code === ErrorCode.Timeout) throw new BusError('timeout', `${topic} did not answer within ${timeout} ms`);
        throw error;
      }
      if (!reply.ok) throw new RemoteError(reply.error);
      return reply.value;
    },
    respond(topic, handler, opts = {}) {
      return track(
        nc.subscribe(requestSubject(topic), {
          ...(opts.group ? { queue: opts.group } : {}),
          callback: (error, msg) => {
            if (error) return;
            void (async () => {
              let reply: Reply;
              try {
                reply = { ok: true, value: (await handler(codec.decode(msg.data))) ?? null };
              } catch (thrown) {
                reply = { ok: false, error: errorDetails(thrown) };
              }
              msg.respond(codec.encode(reply));
            })();
          },
        }),
      );
    },
    async close() {
      for (const sub of subscriptions) sub.unsubscribe();
      subscriptions.clear();
      await nc.drain().catch(() => {});
    },
  };
}
