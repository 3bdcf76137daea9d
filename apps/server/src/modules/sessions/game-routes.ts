/**
 * `GET /ws/game?token=…`: the game channel. The first message is `init { machineID, token, protocol }`
 * (the token may also come in the query); the server joins or resumes the session and answers
 * `joined` with the stream grant. Every server message carries a per-connection `seq`. Every client
 * message is checked against its schema (GameClientSchemas) before anything acts on it.
 */
import type { WebSocket } from 'ws';
import {
  Code,
  GameClientSchemas,
  PROTOCOL_VERSION,
  WsCloseCode,
  WsPath,
  messageFor,
  type GameServerEvents,
} from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Topic, type Bus } from '../../lib/bus.js';
import { AppError, asAppError } from '../../lib/errors.js';
import { PLAYERS } from '../../lib/route-access.js';
import type { GeoService } from '../geo/geo.js';
import { messageValidator } from '../../lib/validation.js';
import type { GameConnection, SessionService } from './types.js';

const HEARTBEAT_MS = 15_000;
const MAX_MESSAGES_PER_SECOND = 30;
const messages = messageValidator(GameClientSchemas);

function socketConnection(socket: WebSocket): GameConnection {
  let seq = 0;
  return {
    send(event, data) {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ event, data, seq: ++seq }));
    },
    close(code, reason) {
      socket.close(code, reason);
    },
  };
}

function errorPayload(thrown: unknown, fatal: boolean): GameServerEvents['error'] {
  const error = asAppError(thrown);
  if (error) return { code: error.code, ErrorMessage: error.message, Params: error.params, fatal };
  return { code: Code.InternalError, ErrorMessage: messageFor(Code.InternalError)!, fatal };
}

interface GameRouteDeps {
  sessions: SessionService;
  bus: Bus;
  geo: GeoService;
  /** A socket that sends no init within this time is closed. */
  initTimeoutMs: number;
}

export const gameRoutes: FastifyPluginAsyncTypebox<GameRouteDeps> = async (app, { sessions, bus, geo, initTimeoutMs }) => {
  app.get(WsPath.game, { websocket: true, config: { roles: PLAYERS }, schema: { hide: true } }, (socket: WebSocket, request) => {
    const conn = socketConnection(socket);
    const queryToken = (request.query as { token?: string }).token;
    let playerId: number | undefined;
    let verifiedToken: string | undefined;
    let alive = true;
    let budget = MAX_MESSAGES_PER_SECOND;
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
      // A token revoked outside this process (the operator CLI's ban) is noticed here.
      if (verifiedToken)
        void app.authorize(request, verifiedToken).catch(() => socket.close(WsCloseCode.InvalidToken, 'token revoked'));
    }, HEARTBEAT_MS);
    const refill = setInterval(() => (budget = MAX_MESSAGES_PER_SECOND), 1000);
    // A socket that never sends init holds a connection for nothing.
    const initTimer = setTimeout(
      () => playerId === undefined && socket.close(WsCloseCode.InitTimeout, 'init timeout'),
      initTimeoutMs,
    );
    socket.on('pong', () => (alive = true));

    const revoked = bus.subscribe(Topic.tokenRevoked, (message) => {
      const { playerId: revokedPlayer } = message as { playerId: number };
      if (revokedPlayer === playerId) socket.close(WsCloseCode.InvalidToken, 'token revoked');
    });

    socket.on('close', () => {
      clearInterval(heartbeat);
      clearInterval(refill);
      clearTimeout(initTimer);
      revoked();
      if (playerId !== undefined) void sessions.disconnect(playerId, conn).catch(() => {});
    });

    const handle = async (received: unknown) => {
      const message = messages.check(received);
      if (message.event === 'init') {
        const { machineID, protocol } = message.data;
        // Checked first: a page of another version would misread every message after this one.
        if (protocol !== undefined && protocol !== PROTOCOL_VERSION)
          throw new AppError(Code.ProtocolMismatch, 426, { protocol, expected: PROTOCOL_VERSION });
        const token = message.data.token ?? queryToken;
        const claims = await app.authorize(request, token);
        if (!geo.isAllowed(request.ip)) throw new AppError(Code.LoginIpNotPermitted, 403);
        playerId = claims.id;
        verifiedToken = token;
        await sessions.join(claims.id, machineID, conn);
        return;
      }
      if (message.event === 'ping')
        return conn.send('info', { code: Code.Success, params: {}, message: 'pong', action: '' });
      if (playerId === undefined) throw new AppError(Code.InvalidRequest, 400, {}, 'send init first');
      switch (message.event) {
        case 'cashout':
          return sessions.cashOut(playerId);
        case 'cashin':
          return sessions.cashIn(playerId, message.data.amountCents, message.data.idempotencyKey);
        case 'spin':
          return void (await sessions.spin(playerId, message.data.commandId));
        case 'bet':
          return void (await sessions.setBetLevel(playerId, message.data.commandId, message.data.level));
        case 'autoplay':
          return void (await sessions.autoplay(playerId, message.data.commandId, message.data.on, message.data.stops));
        case 'band':
          return sessions.setBand(playerId, message.data.bandId);
        case 'view':
          return sessions.setVideoType(playerId, message.data.videoType);
        case 'leave':
          return sessions.leave(playerId);
        case 'stream':
          return sessions.renewStream(playerId);
      }
    };

    socket.on('message', (raw) => {
      if (--budget < 0) return;
      let message: unknown;
      try {
        message = JSON.parse(String(raw));
      } catch {
        return conn.send(
          'error',
          errorPayload(new AppError(Code.InvalidRequest, 400, {}, 'not JSON'), false),
        );
      }
      handle(message).catch((error) => {
        const joining = (message as { event?: unknown } | null)?.event === 'init';
        conn.send('error', errorPayload(error, joining));
        if (!joining) return;
        if (asAppError(error)?.code === Code.ProtocolMismatch)
          socket.close(WsCloseCode.ProtocolMismatch, 'protocol mismatch');
        else socket.close(WsCloseCode.JoinFailed, 'join failed');
      });
    });
  });
};
