/** The player's own protection settings: limits (GET/PUT) and the confirmation of a raise. */
import { ApiPath, Code, LimitConfirmRequest, LimitsResponse, LimitsUpdateRequest, OkResponse } from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { PLAYERS } from '../../lib/route-access.js';
import type { Protection } from './protection.js';

interface ProtectionRouteDeps {
  protection: Protection;
  settings: () => { LIMIT_INCREASE_DELAY_H: number };
}

export const protectionRoutes: FastifyPluginAsyncTypebox<ProtectionRouteDeps> = async (app, { protection, settings }) => {
  const secured = { config: { roles: PLAYERS } };
  const schema = securedSchema('protection');
  const answer = async (playerId: number) => ({
    status: true,
    code: Code.Success,
    limits: await protection.limits.list(playerId),
    increaseDelayH: settings().LIMIT_INCREASE_DELAY_H,
  });

  app.get(ApiPath.limits, { ...secured, schema: schema({ response: { 200: LimitsResponse, ...errorResponses } }) }, (request) => answer(request.auth.id));

  app.put(ApiPath.limits, { ...secured, schema: schema({ body: LimitsUpdateRequest, response: { 200: LimitsResponse, ...errorResponses } }) }, async (request) => {
    await protection.limits.update(request.auth.id, request.body.limits);
    return answer(request.auth.id);
  });

  app.post(ApiPath.limitsConfirm, { ...secured, schema: schema({ body: LimitConfirmRequest, response: { 200: OkResponse, ...errorResponses } }) }, async (request) => {
    await protection.limits.confirm(request.auth.id, request.body.key);
    return { status: true, code: Code.Success };
  });
};
