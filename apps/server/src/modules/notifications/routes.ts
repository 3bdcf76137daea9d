/**
 * `GET /ws/notifications?token=…[&lastSeq=n]`: the token in the query as the spec says (browsers
 * cannot set headers on a WebSocket), or an `init` message `{ id, token, lastSeq }` as the first
 * message. The socket closes when the token expires or is revoked, and dead sockets are dropped by
 * a heartbeat.
 */
import { randomInt } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Code, NotificationClientSchemas, WsCloseCode, WsPath } from '@reel/protocol';
import type { Bus } from '../../lib/bus.js';
import { PLAYERS } from '../../lib/route-access.js';
import { messageValidator } from '../../lib/validation.js';
import { createNotificationHub } from './hub.js';

const AUTH_TIMEOUT_MS = 5_000;
const HEARTBEAT_MS = 25_000;
const messages = messageValidator(NotificationClientSchemas);

/** `cluster`: several servers share the bus, so each starts its sequence numbers far from the others'. */
/** `attached`: called once a socket is authenticated (what the player should hear again on a reconnect). */
interface NotificationRouteDeps {
  bus: Bus;
  cluster: boolean;
  attached?: (playerId: number) => Promise<void>;
}

export const notificationRoutes: FastifyPluginAsyncTypebox<NotificationRouteDeps> = async (app, { bus, cluster, attached }) => {
  const hub = createNotificationHub(bus, cluster ? { firstSeq: randomInt(1, 2 ** 40) * 1_000 } : {});
  app.addHook('onClose', async () => hub.close());

  app.get(WsPath.notifications, { websocket: true, config: { roles: PLAYERS }, schema: { hide: true } }, (socket: WebSocket, request) => {
    const query = request.query as { token?: string; lastSeq?: string };
    let authenticated = false;
    let verifiedToken: string | undefined;
    let alive = true;
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
      // A token revoked outside this process (the operator CLI's ban) is noticed here.
      if (verifiedToken) void app.authorize(request, verifiedToken).catch((error) => rejectToken(error));
    }, HEARTBEAT_MS);
    const authTimer = setTimeout(
      () => !authenticated && socket.close(WsCloseCode.InvalidToken, 'no token'),
      AUTH_TIMEOUT_MS,
    );
    let expiryTimer: NodeJS.Timeout | undefined;
    socket.on('pong', () => (alive = true));
    socket.on('close', () => {
      clearInterval(heartbeat);
      clearTimeout(authTimer);
      clearTimeout(expiryTimer);
    });

    const rejectToken = (error: unknown) => {
      const { code = Code.InvalidAccessToken, params } = error as { code?: number; params?: Record<string, unknown> };
      const Params = params && Object.keys(params).length ? { Params: params } : {};
      socket.send(JSON.stringify({ event: 'logout', data: { code, ...Params }, seq: 0 }));
      socket.close(WsCloseCode.InvalidToken, 'invalid token');
    };

    const authenticate = async (token: string, lastSeq?: number) => {
      try {
        const claims = await app.authorize(request, token);
        authenticated = true;
        verifiedToken = token;
        hub.attach(socket, { playerId: claims.id, jti: claims.jti }, lastSeq);
        void attached?.(claims.id).catch(() => {});
        expiryTimer = setTimeout(
          () => {
            socket.send(JSON.stringify({ event: 'logout', data: { code: Code.AccessTokenExpired }, seq: 0 }));
            socket.close(WsCloseCode.InvalidToken, 'token expired');
          },
          Math.max(0, claims.exp * 1000 - Date.now()),
        );
      } catch (error) {
        rejectToken(error);
      }
    };

    socket.on('message', (raw) => {
      // What is not JSON or not a known message of this channel is ignored.
      let message: ReturnType<typeof messages.check>;
      try {
        message = messages.check(JSON.parse(String(raw)));
      } catch {
        return;
      }
      if (message.event === 'init' && !authenticated) {
        void authenticate(message.data.token, message.data.lastSeq);
      } else if (message.event === 'ping') {
        socket.send(JSON.stringify({ event: 'pong', data: {}, seq: 0 }));
      }
    });

    if (typeof query.token === 'string' && query.token) {
      const lastSeq =
        typeof query.lastSeq === 'string' && /^\d{1,15}$/.test(query.lastSeq)
          ? Number(query.lastSeq)
          : undefined;
      void authenticate(query.token, lastSeq);
    }
  });
};
