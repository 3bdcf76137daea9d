/** The player's own protection settings: limits (GET/PUT) and the confirmation of a raise. */
import { ApiPath, BreakRequest, BreakResponse, Code, LimitConfirmRequest, LimitsResponse, LimitsUpdateRequest, OkResponse, RealityCheckRequest } from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { PLAYERS } from '../../lib/route-access.js';
import type { Protection } from './protection.js';
import { takeBreak, type BreakRoad } from './take-break.js';

interface ProtectionRouteDeps {
  protection: Protection;
  settings: () => { LIMIT_INCREASE_DELAY_H: number };
  breakRoad: BreakRoad;
}

export const protectionRoutes: FastifyPluginAsyncTypebox<ProtectionRouteDeps> = async (app, { protection, settings, breakRoad }) => {
  const secured = { config: { roles: PLAYERS } };
  const schema = securedSchema('protection');
  const answer = async (playerId: number) => ({
    status: true,
    code: Code.Success,
    limits: await protection.limits.list(playerId),
    increaseDelayH: settings().LIMIT_INCREASE_DELAY_H,
    realityCheckMinutes: await protection.realityChecks.minutes(playerId),
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

  app.put(ApiPath.realityCheck, { ...secured, schema: schema({ body: RealityCheckRequest, response: { 200: LimitsResponse, ...errorResponses } }) }, async (request) => {
    await protection.realityChecks.setMinutes(request.auth.id, request.body.minutes);
    return answer(request.auth.id);
  });

  // The held spin goes through once the player acknowledged the summary.
  app.post(ApiPath.realityCheckAck, { ...secured, schema: schema({ response: { 200: OkResponse, ...errorResponses } }) }, async (request) => {
    await protection.realityChecks.acknowledge(request.auth.id);
    return { status: true, code: Code.Success };
  });

  // The web app asks twice before it sends this; the answer is the last this token gets.
  app.post(ApiPath.takeBreak, { ...secured, schema: schema({ body: BreakRequest, response: { 200: BreakResponse, ...errorResponses } }) }, async (request) => ({
    status: true,
    code: Code.Success,
    break: await takeBreak(breakRoad, request.auth.id, request.body.period),
  }));
};
