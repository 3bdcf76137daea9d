/**
 * The console's live floor (issue 27): the REST snapshot, the staff channel `/ws/admin` that pushes
 * every change, and the operator's actions on a machine. Every route is STAFF; every action needs
 * a reason and writes its audit rows (floor-actions.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { WebSocket } from 'ws';
import {
  ADMIN_WS_PATH,
  AdminFloorPath,
  Code,
  EmergencyStopRequest,
  FloorActionRequest,
  FloorActionResult,
  FloorMachineParams,
  FloorSnapshot,
  ServiceRequest,
  StreamGrant,
  WsCloseCode,
} from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import { AppError } from '../../lib/errors.js';
import { STAFF } from '../../lib/route-access.js';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { staffActor } from '../operator-actions/actor.js';
import { FloorActions, type FloorSessions } from './floor-actions.js';
import { FloorFeed, type FloorCabinets } from './floor-feed.js';
import type { FrameAges } from './floor-view.js';

const AUTH_TIMEOUT_MS = 5_000;
const HEARTBEAT_MS = 25_000;

export const floorRoutes: FastifyPluginAsyncTypebox<{ db: Db; bus: Bus; cabinets: () => FloorCabinets; sessions: () => FloorSessions; frameAges: FrameAges | null }> = async (
  app,
  { db, bus, cabinets, sessions, frameAges },
) => {
  const feed = new FloorFeed({ db, bus, cabinets, frameAges, warn: (error) => app.log.warn({ err: error }, 'floor feed') });
  app.addHook('onClose', async () => feed.close());
  const actions = new FloorActions({
    db,
    sessions,
    changed: (machineId) => feed.changed(machineId),
    warn: (error) => app.log.warn({ err: error }, 'floor action outcome not recorded'),
  });
  const staffOnly = { config: { roles: STAFF } };
  const schema = securedSchema('admin');
  const withReason = <B,>(body: B) => schema({ params: FloorMachineParams, body, response: { 200: FloorActionResult, ...errorResponses } });

  app.get(
    `/api${AdminFloorPath.floor}`,
    { ...staffOnly, schema: schema({ response: { 200: FloorSnapshot, ...errorResponses } }) },
    async () => ({ machines: await feed.read(), at: new Date().toISOString() }),
  );

  app.post(`/api${AdminFloorPath.kick}`, { ...staffOnly, schema: withReason(FloorActionRequest) }, async (request) => ({
    ok: true,
    ...(await actions.kick(staffActor(request.operator), request.params.machineId, request.body.reason)),
  }));

  app.post(`/api${AdminFloorPath.cashOut}`, { ...staffOnly, schema: withReason(FloorActionRequest) }, async (request) => ({
    ok: true,
    ...(await actions.cashOut(staffActor(request.operator), request.params.machineId, request.body.reason)),
  }));

  app.put(`/api${AdminFloorPath.service}`, { ...staffOnly, schema: withReason(ServiceRequest) }, async (request) => {
    await actions.setService(staffActor(request.operator), request.params.machineId, request.body.inService, request.body.reason);
    return { ok: true };
  });

  app.put(`/api${AdminFloorPath.emergencyStop}`, { ...staffOnly, schema: withReason(EmergencyStopRequest) }, async (request) => ({
    ok: true,
    ...(await actions.emergencyStop(staffActor(request.operator), request.params.machineId, request.body.stopped, request.body.reason)),
  }));

  // Watching is not an action on the machine: no reason, no audit row (docs/spec-decisions.md).
  app.post(
    `/api${AdminFloorPath.video}`,
    { ...staffOnly, schema: schema({ params: FloorMachineParams, response: { 200: StreamGrant, ...errorResponses } }) },
    async (request) => {
      const grant = await sessions().staffVideoGrant(request.params.machineId);
      if (!grant) throw new AppError(Code.PipelineFailed, 503);
      return grant;
    },
  );

  // The staff channel: `?token=` (browsers cannot set headers on a WebSocket); origin checked by ws-origin.ts.
  app.get(ADMIN_WS_PATH, { websocket: true, config: { roles: STAFF }, schema: { hide: true } }, (socket: WebSocket, request) => {
    const token = (request.query as { token?: string }).token;
    let detach: (() => void) | undefined;
    let alive = true;
    let expiry: NodeJS.Timeout | undefined;
    const heartbeat = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, HEARTBEAT_MS);
    const authTimer = setTimeout(() => !detach && socket.close(WsCloseCode.InvalidToken, 'no token'), AUTH_TIMEOUT_MS);
    socket.on('pong', () => (alive = true));
    socket.on('close', () => {
      clearInterval(heartbeat);
      clearTimeout(authTimer);
      clearTimeout(expiry);
      detach?.();
    });
    app
      .authorizeOperator(request, token)
      .then(async (claims) => {
        detach = await feed.attach(socket);
        expiry = setTimeout(() => socket.close(WsCloseCode.InvalidToken, 'token expired'), Math.max(0, claims.exp * 1000 - Date.now()));
      })
      .catch((error: unknown) => {
        const code = (error as { code?: number }).code ?? Code.InvalidAccessToken;
        socket.send(JSON.stringify({ event: 'logout', data: { code } }));
        socket.close(WsCloseCode.InvalidToken, 'invalid token');
      });
  });
};
