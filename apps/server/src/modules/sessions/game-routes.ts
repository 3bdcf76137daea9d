/**
 * `GET /ws/game?token=…`: the game channel. The first message is `init { machineID, token }`
 * (the token may also come in the query); the server joins or resumes the session and answers
 * `joined` with the stream grant. Every server message carries a per-connection `seq`.
 */
import type { WebSocket } from 'ws';
import { Code, GameClientSchemas, WsCloseCode, WsPath, messageFor, type GameClientMessage, type GameServerEvents } from '@reel/protocol';
import type { Api, AppContext } from '../../context.js';
import { AppError, asAppError } from '../../lib/errors.js';
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

export async function gameRoutes(app: Api, ctx: AppContext, sessions: SessionService) {
  app.get(WsPath.game, { websocket: true, schema: { hide: true } }, (socket: WebSocket, request) => {
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
      if (verifiedToken) void ctx.tokens.verify(verifiedToken).catch(() => socket.close(4001, 'token revoked'));
    }, HEARTBEAT_MS);
    const refill = setInterval(() => (budget = MAX_MESSAGES_PER_SECOND), 1000);
    // A socket that never sends init holds a connection for nothing.
    const initTimer = setTimeout(() => playerId === undefined && socket.close(WsCloseCode.InitTimeout, 'init timeout'), ctx.config.ws.initTimeoutMs);
    socket.on('pong', () => (alive = true));

    const revoked = ctx.bus.subscribe('auth.token-revoked', (message) => {
      const { playerId: revokedPlayer } = message as { playerId: number };
      if (revokedPlayer === playerId) socket.close(4001, 'token revoked');
    });

    socket.on('close', () => {
      clearInterval(heartbeat);
      clearInterval(refill);
      clearTimeout(initTimer);
      revoked();
      if (playerId !== undefined) void sessions.disconnect(playerId, conn).catch(() => {});
    });

    const handle = async (received: unknown) => {
      const message = messages.check(received) as GameClientMessage;
      if (message.event === 'init') {
        const token = typeof message.data?.token === 'string' ? message.data.token : queryToken;
        const machineId = Number(message.data?.machineID);
        if (!token) throw new AppError(Code.InvalidAccessToken, 401);
        if (!Number.isInteger(machineId) || machineId <= 0) throw new AppError(Code.InvalidRequest, 400, {}, 'machineID must be a machine id');
        const claims = await ctx.tokens.verify(token);
        if (!ctx.geo.isAllowed(request.ip)) throw new AppError(Code.LoginIpNotPermitted, 403);
        playerId = claims.id;
        verifiedToken = token;
        await sessions.join(claims.id, machineId, conn);
        return;
      }
      if (message.event === 'ping') return conn.send('info', { code: Code.Success, params: {}, message: 'pong', action: '' });
      if (playerId === undefined) throw new AppError(Code.InvalidRequest, 400, {}, 'send init first');
      const data = (message.data ?? {}) as Record<string, unknown>;
      const commandId = typeof data.commandId === 'string' && data.commandId.length <= 64 ? data.commandId : undefined;
      switch (message.event) {
        case 'cashout':
          return sessions.cashOut(playerId);
        case 'cashin':
          if (typeof data.idempotencyKey !== 'string' || data.idempotencyKey.length > 100) throw new AppError(Code.InvalidRequest, 400, {}, 'idempotencyKey is required');
          return sessions.cashIn(playerId, Number(data.amountCents), data.idempotencyKey);
        case 'spin':
          if (!commandId) throw new AppError(Code.InvalidRequest, 400, {}, 'commandId is required');
          return void (await sessions.spin(playerId, commandId));
        case 'bet':
          if (!commandId || !Number.isInteger(data.level)) throw new AppError(Code.InvalidRequest, 400, {}, 'commandId and level are required');
          return void (await sessions.setBetLevel(playerId, commandId, data.level as number));
        case 'autoplay':
          if (!commandId || typeof data.on !== 'boolean') throw new AppError(Code.InvalidRequest, 400, {}, 'commandId and on are required');
          return void (await sessions.autoplay(playerId, commandId, data.on));
        case 'band':
          if (typeof data.bandId !== 'string') throw new AppError(Code.InvalidRequest, 400, {}, 'bandId is required');
          return sessions.setBand(playerId, data.bandId);
        case 'leave':
          return sessions.leave(playerId);
        case 'stream':
          return sessions.renewStream(playerId);
        default:
          throw new AppError(Code.InvalidRequest, 400, {}, 'unknown event');
      }
    };

    socket.on('message', (raw) => {
      if (--budget < 0) return;
      let message: GameClientMessage;
      try {
        message = JSON.parse(String(raw));
      } catch {
        return conn.send('error', errorPayload(new AppError(Code.InvalidRequest, 400, {}, 'not JSON'), false));
      }
      handle(message).catch((error) => {
        const joining = message?.event === 'init';
        conn.send('error', errorPayload(error, joining));
        if (joining) socket.close(4002, 'join failed');
      });
    });
  });
}
