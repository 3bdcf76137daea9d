/**
 * A player's protection in the console (issue 28 on the issue 27 console): staff read the limits as
 * they apply now and every break; only an admin ends a self-exclusion early, with a reason and one
 * audit row in the same transaction (docs/operator.md).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdminIdParams, AdminPath, AdminPlayerProtection, Code, ReasonRequest } from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { ADMIN_ONLY, STAFF } from '../../lib/route-access.js';
import { operatorActor, requireReason } from '../audit/audit-actor.js';
import type { Protection } from '../protection/protection.js';
import { endSelfExclusion } from './player-actions.js';
import { playerSummary } from './player-queries.js';

interface ProtectionRouteDeps {
  db: Db;
  protection: Pick<Protection, 'limits' | 'breaks'>;
}

export const adminProtectionRoutes: FastifyPluginAsyncTypebox<ProtectionRouteDeps> = async (
  app,
  { db, protection },
) => {
  const schema = securedSchema('admin');
  const response = { 200: AdminPlayerProtection, ...errorResponses };
  const view = async (playerId: number) => ({
    status: true,
    code: Code.Success,
    limits: await protection.limits.list(playerId),
    breaks: await protection.breaks.history(playerId),
  });

  app.get(
    AdminPath.playerProtection,
    { config: { roles: STAFF }, schema: schema({ params: AdminIdParams, response }) },
    async (request) => {
      // No such player: 40400 (the limits alone would answer an empty set).
      await playerSummary(db, request.params.id);
      return view(request.params.id);
    },
  );

  app.post(
    AdminPath.playerEndSelfExclusion,
    {
      config: { roles: ADMIN_ONLY },
      schema: schema({ params: AdminIdParams, body: ReasonRequest, response }),
    },
    async (request) => {
      const acting = { actor: operatorActor(request.operator), reason: requireReason(request.body.reason) };
      await endSelfExclusion({ db, breaks: protection.breaks }, acting, request.operator, request.params.id);
      return view(request.params.id);
    },
  );
};
