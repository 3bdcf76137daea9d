/**
 * `GET /ws/jackpot?token=…`: the spec's jackpot signal socket. A signed-in player's page gets every
 * brand's jackpot values at once (`jackpots`), then each change and hit (`jackpot`) as the session
 * manager publishes them on the lobby topic. Read-only: what the client sends is ignored. The socket
 * closes with 4001 after a `logout { code }` for a bad token (10, 40102, 40103) and when it expires.
 */
import type { WebSocket } from 'ws';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Code, WsCloseCode, WsPath, type JackpotNotification, type JackpotSignalEvents } from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import { Topic, type Bus } from '../../lib/bus.js';
import { PLAYERS } from '../../lib/route-access.js';
import { currentJackpots } from '../jackpots/jackpots.js';

const HEARTBEAT_MS = 25_000;

export const jackpotRoutes: FastifyPluginAsyncTypebox<{ db: Db; bus: Bus }> = async (app, deps) => {
  app.get(WsPath.jackpot, { websocket: true, config: { roles: PLAYERS }, schema: { hide: true } }, (socket: WebSocket, request) => {
    let seq = 0;
    const send = <E extends keyof JackpotSignalEvents>(event: E, data: JackpotSignalEvents[E]) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ event, data, seq: ++seq }));
    };
    const reject = (error: unknown) => {
      send('logout', { code: (error as { code?: number }).code ?? Code.InvalidAccessToken });
      socket.close(WsCloseCode.InvalidToken, 'invalid token');
    };
    // Cleanups registered after the socket closed (it may close while the token is checked) run at once.
    let closed = false;
    const cleanups: (() => void)[] = [];
    const onClose = (cleanup: () => void) => (closed ? cleanup() : cleanups.push(cleanup));
    socket.on('close', () => {
      closed = true;
      cleanups.splice(0).forEach((cleanup) => cleanup());
    });

    const token = (request.query as { token?: unknown }).token;
    if (typeof token !== 'string' || !token) return reject({ code: Code.InvalidAccessToken });
    void (async () => {
      const claims = await app.authorize(request, token);
      // Subscribe before reading the snapshot, so no change falls between the two.
      const pending: JackpotNotification[] = [];
      let live = false;
      onClose(
        deps.bus.subscribe(Topic.lobby, (message) => {
          const { event, data } = message as { event: string; data: JackpotNotification };
          if (event !== 'jackpot') return;
          if (live) send('jackpot', data);
          else pending.push(data);
        }),
      );
      send('jackpots', { brands: await currentJackpots(deps.db) });
      live = true;
      for (const data of pending.splice(0)) send('jackpot', data);

      const expiry = setTimeout(() => reject({ code: Code.AccessTokenExpired }), Math.max(0, claims.exp * 1000 - Date.now()));
      let alive = true;
      socket.on('pong', () => (alive = true));
      const heartbeat = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
        // A revoked token (logout, ban) stops the signal too.
        void app.authorize(request, token).catch(reject);
      }, HEARTBEAT_MS);
      onClose(() => {
        clearTimeout(expiry);
        clearInterval(heartbeat);
      });
    })().catch(reject);
  });
};
