/** The console's hand pay queue: list and approve (issue 27). Every route STAFF; approval needs a reason. */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdminHandPayPath, HandPayApproveRequest, HandPayApproveResult, HandPayListQuery, HandPayParams, HandPayView } from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import { STAFF } from '../../lib/route-access.js';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { staffActor } from '../operator-actions/actor.js';
import type { SessionManager } from '../sessions/session-manager.js';
import { approveHandPay, handPayQueue } from './hand-pay-approval.js';

export const handPayRoutes: FastifyPluginAsyncTypebox<{ db: Db; bus: Bus; sessions: () => Pick<SessionManager, 'handPayPaid'> }> = async (
  app,
  { db, bus, sessions },
) => {
  const staffOnly = { config: { roles: STAFF } };
  const schema = securedSchema('admin');
  const paid = ({ machineId, playerId, amountCents }: { machineId: number; playerId: number; amountCents: number }) =>
    sessions().handPayPaid(machineId, playerId, amountCents);

  app.get(
    AdminHandPayPath.list,
    { ...staffOnly, schema: schema({ querystring: HandPayListQuery, response: { 200: Type.Array(HandPayView), ...errorResponses } }) },
    async (request) => handPayQueue(db, request.query.status),
  );

  app.post(
    AdminHandPayPath.approve,
    {
      ...staffOnly,
      schema: schema({ params: HandPayParams, body: HandPayApproveRequest, response: { 200: HandPayApproveResult, ...errorResponses } }),
    },
    async (request) => approveHandPay({ db, bus, paid }, staffActor(request.operator), request.params.id, request.body.reason),
  );
};
