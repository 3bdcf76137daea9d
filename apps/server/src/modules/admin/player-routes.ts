/**
 * `/api/admin/players`: search, a player's page, and the actions on a player. Staff read, ban,
 * unban, unlock and write notes; admins also correct money and set passwords and PINs
 * (docs/spec-decisions.md). Every action names its reason and writes one audit row.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminIdParams,
  AdminMoneyHeaders,
  AdminMoneyRequest,
  AdminMoneyResponse,
  AdminNoteRequest,
  AdminPasswordRequest,
  AdminPath,
  AdminPinRequest,
  AdminPlayerActionResponse,
  AdminPlayerDetail,
  AdminPlayerList,
  AdminPlayersQuery,
  Code,
  CURRENCY,
  IDEMPOTENCY_HEADER,
  ReasonRequest,
  type OperatorClaims,
} from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { ADMIN_ONLY, STAFF } from '../../lib/route-access.js';
import { operatorActor, requireReason } from '../audit/audit-actor.js';
import { addNote, cashierMove, resetPassword, setBanned, setPin, unlockPlayer } from './player-actions.js';
import { playerDetail, playerSummary, searchPlayers } from './player-queries.js';

const ok = { status: true, code: Code.Success } as const;

export const adminPlayerRoutes: FastifyPluginAsyncTypebox<{ db: Db; bus: Bus }> = async (app, { db, bus }) => {
  const schema = securedSchema('admin');
  const acting = (operator: OperatorClaims, reason: string | undefined) => ({ actor: operatorActor(operator), reason: requireReason(reason) });
  const answer = async (playerId: number, signedOut = 0) => ({ ...ok, player: await playerSummary(db, playerId), signed_out: signedOut });
  const action = { params: AdminIdParams, response: { 200: AdminPlayerActionResponse, ...errorResponses } };

  app.get(
    AdminPath.players,
    { config: { roles: STAFF }, schema: schema({ querystring: AdminPlayersQuery, response: { 200: AdminPlayerList, ...errorResponses } }) },
    async (request) => ({ ...ok, ...(await searchPlayers(db, request.query)) }),
  );

  app.get(
    AdminPath.player,
    { config: { roles: STAFF }, schema: schema({ params: AdminIdParams, response: { 200: AdminPlayerDetail, ...errorResponses } }) },
    async (request) => ({ ...ok, ...(await playerDetail(db, request.params.id)) }),
  );

  for (const [path, direction] of [
    [AdminPath.playerDeposit, 'deposit'],
    [AdminPath.playerWithdraw, 'withdraw'],
  ] as const) {
    app.post(
      path,
      {
        config: { roles: ADMIN_ONLY },
        schema: schema({ params: AdminIdParams, headers: AdminMoneyHeaders, body: AdminMoneyRequest, response: { 200: AdminMoneyResponse, ...errorResponses } }),
      },
      async (request) => {
        const result = await cashierMove({ db, bus }, acting(request.operator, request.body.reason), {
          playerId: request.params.id,
          direction,
          amountCents: request.body.amount,
          idempotencyKey: request.headers[IDEMPOTENCY_HEADER],
        });
        return { ...ok, operation_id: result.move.operationId, replayed: result.move.replayed, wallet: { ...result.wallet, currency: CURRENCY } };
      },
    );
  }

  for (const [path, banned] of [
    [AdminPath.playerBan, true],
    [AdminPath.playerUnban, false],
  ] as const) {
    app.post(path, { config: { roles: STAFF }, schema: schema({ ...action, body: ReasonRequest }) }, async (request) => {
      const { revokedTokens } = await setBanned(db, acting(request.operator, request.body.reason), request.params.id, banned);
      return answer(request.params.id, revokedTokens);
    });
  }

  app.post(AdminPath.playerUnlock, { config: { roles: STAFF }, schema: schema({ ...action, body: ReasonRequest }) }, async (request) => {
    await unlockPlayer(db, acting(request.operator, request.body.reason), request.params.id);
    return answer(request.params.id);
  });

  app.post(AdminPath.playerPassword, { config: { roles: ADMIN_ONLY }, schema: schema({ ...action, body: AdminPasswordRequest }) }, async (request) => {
    const { revokedTokens } = await resetPassword(db, acting(request.operator, request.body.reason), request.params.id, request.body.password);
    return answer(request.params.id, revokedTokens);
  });

  app.post(AdminPath.playerPin, { config: { roles: ADMIN_ONLY }, schema: schema({ ...action, body: AdminPinRequest }) }, async (request) => {
    await setPin(db, acting(request.operator, request.body.reason), request.params.id, request.body.pin);
    return answer(request.params.id);
  });

  app.post(AdminPath.playerNotes, { config: { roles: STAFF }, schema: schema({ ...action, body: AdminNoteRequest }) }, async (request) => {
    const text = requireReason(request.body.text);
    await addNote(db, { actor: operatorActor(request.operator), operatorId: request.operator.id }, request.params.id, text);
    return answer(request.params.id);
  });
};
