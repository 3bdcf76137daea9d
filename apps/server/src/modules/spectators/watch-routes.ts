/**
 * `GET /ws/watch?token=…&machineId=n`: a spectator's channel. Accepted: `watching` (name, a
 * spectator's video grant, the watcher count), then `play` per game and `watchers` when the count
 * changes (at most once per WATCHERS_PUSH_MS per machine, the latest count). The client may ask for
 * a fresh grant (`stream`) and ping; any other event — a spin, a bet, a cash in — is answered with
 * 40307 and goes nowhere: this channel has no road to a session or a cabinet.
 * A refusal (40935 full, 40936 nothing to watch, 40400) is an `error` and close 4002.
 */
import type { WebSocket } from 'ws';
import type { FastifyPluginAsync } from 'fastify';
import { Code, messageFor, WsCloseCode, WsPath, type Params, type WatchServerEvents } from '@reel/protocol';
import { asAppError } from '../../lib/errors.js';
import { PLAYERS } from '../../lib/route-access.js';
import type { Spectators } from './spectators.js';

const HEARTBEAT_MS = 25_000;
/** Watcher counts reach a watch socket at most this often (the lobby's rule too). */
const WATCHERS_PUSH_MS = 100;

type Send = <E extends keyof WatchServerEvents>(event: E, data: WatchServerEvents[E]) => void;

export const watchRoutes: FastifyPluginAsync<{ spectators: Spectators }> = async (app, { spectators }) => {
  /** This server's watch sockets per machine, and the one bus subscription each machine needs. */
  const rooms = new Map<number, { sends: Set<Send>; unsubscribe: () => void; countTimer: NodeJS.Timeout | null }>();

  const join = (machineId: number, send: Send) => {
    let room = rooms.get(machineId);
    if (!room) {
      const sends = new Set<Send>();
      const unsubscribe = spectators.onPlay(machineId, (play) => sends.forEach((s) => s('play', play)));
      rooms.set(machineId, (room = { sends, unsubscribe, countTimer: null }));
    }
    room.sends.add(send);
  };
  const part = (machineId: number, send: Send) => {
    const room = rooms.get(machineId);
    if (!room) return;
    room.sends.delete(send);
    if (room.sends.size > 0) return;
    room.unsubscribe();
    if (room.countTimer) clearTimeout(room.countTimer);
    rooms.delete(machineId);
  };
  // Counts conflated per machine: a crowd arriving is one push per 100 ms, with the latest figure.
  const onCount = (machineId: number) => {
    const room = rooms.get(machineId);
    if (!room || room.countTimer) return;
    room.countTimer = setTimeout(() => {
      room.countTimer = null;
      const count = spectators.counts.total(machineId);
      room.sends.forEach((s) => s('watchers', { id: machineId, count }));
    }, WATCHERS_PUSH_MS);
  };
  spectators.counts.on('change', onCount);
  app.addHook('onClose', async () => {
    spectators.counts.off('change', onCount);
    for (const room of rooms.values()) {
      room.unsubscribe();
      if (room.countTimer) clearTimeout(room.countTimer);
    }
    rooms.clear();
  });

  app.get(WsPath.watch, { websocket: true, config: { roles: PLAYERS }, schema: { hide: true } }, (socket: WebSocket, request) => {
    const query = request.query as { token?: string; machineId?: string };
    let seq = 0;
    const send: Send = (event, data) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ event, data, seq: ++seq }));
    };
    const fail = (code: number, fatal: boolean, params?: Params) => {
      send('error', { code, ErrorMessage: messageFor(code) ?? `error ${code}`, ...(params && Object.keys(params).length ? { Params: params } : {}), fatal });
      if (fatal) socket.close(WsCloseCode.JoinFailed, 'watch refused');
    };
    let watching: { playerId: number; machineId: number } | null = null;
    let expiry: NodeJS.Timeout | undefined;
    let alive = true;
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, HEARTBEAT_MS);
    socket.on('pong', () => (alive = true));
    socket.on('close', () => {
      clearInterval(heartbeat);
      clearTimeout(expiry);
      if (!watching) return;
      part(watching.machineId, send);
      spectators.leave(watching.machineId);
      watching = null;
    });

    socket.on('message', (raw) => {
      let message: { event?: unknown };
      try {
        message = JSON.parse(String(raw)) as { event?: unknown };
      } catch {
        return fail(Code.InvalidRequest, false);
      }
      if (message?.event === 'ping') return send('pong', {});
      if (message?.event === 'stream' && watching) {
        const { playerId, machineId } = watching;
        void spectators.grant(playerId, machineId).then(
          (grant) => grant && send('stream', grant),
          () => fail(Code.PipelineFailed, false),
        );
        return;
      }
      // Everything else a game channel would take (spin, bet, cashin, autoplay, init...): refused.
      if (message?.event !== 'stream') fail(Code.SpectatorCannotPlay, false);
    });

    const machineId = Number(query.machineId);
    if (!Number.isInteger(machineId) || machineId < 1) return fail(Code.InvalidRequest, true);
    void (async () => {
      let playerId: number;
      try {
        const claims = await app.authorize(request, query.token);
        playerId = claims.id;
        expiry = setTimeout(() => socket.close(WsCloseCode.InvalidToken, 'token expired'), Math.max(0, claims.exp * 1000 - Date.now()));
      } catch (error) {
        const known = asAppError(error);
        send('error', { code: known?.code ?? Code.InvalidAccessToken, ErrorMessage: known?.message ?? 'invalid token', fatal: true });
        return socket.close(WsCloseCode.InvalidToken, 'invalid token');
      }
      try {
        const started = await spectators.start(playerId, machineId);
        if (socket.readyState !== socket.OPEN) return spectators.leave(machineId);
        watching = { playerId, machineId };
        join(machineId, send);
        send('watching', { machineId, name: started.name, stream: started.stream, watchers: started.watchers });
      } catch (error) {
        const known = asAppError(error);
        fail(known?.code ?? Code.InternalError, true, known?.params);
      }
    })();
  });
};
