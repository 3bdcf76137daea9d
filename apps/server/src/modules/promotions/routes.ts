/**
 * `GET /player/discount` and `GET /player/bonus` (spec sections 5 and 7): a fixed amount credited to
 * the wallet's discount or bonus part from the promotions account. The browser's cooldown is only a
 * hint; the server enforces one claim per cooldown per player and kind inside the money transaction.
 * The discount's balance rule is the runtime settings' (`DISCOUNT_MIN`, `DISCOUNT_BALANCE_CHECK` in
 * Settings.json, read per claim so an operator's change applies at once); the web app has no copy.
 */
import {
  ApiPath,
  Code,
  IDEMPOTENCY_HEADER,
  PromotionHeaders,
  PromotionKind,
  PromotionResponse,
} from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import { PLAYERS } from '../../lib/route-access.js';
import { claimPromotion, type PromotionDeps, type PromotionKindName } from './claims.js';

export const promotionRoutes: FastifyPluginAsyncTypebox<PromotionDeps> = async (app, deps) => {
  const schema = securedSchema('player');
  const promotionRoute = (path: string, kind: PromotionKindName) =>
  app.get(
    path,
    {
      config: { roles: PLAYERS },
      schema: schema({
        summary: kind === PromotionKind.Discount ? 'Claim the discount' : 'Claim the bonus',
        description:
          kind === PromotionKind.Discount
            ? 'Credits the configured discount (Params.amount, cents). 40202 when the balance is at or above the minimum (Params.amount) while the balance check is on; 40203 within the cooldown; 40204 while switched off (Settings.json DISCOUNT false, or a zero amount).'
            : 'Credits the configured bonus (Params.amount, cents). 40203 within the cooldown; 40204 while switched off (Settings.json BONUS false, or a zero amount).',
        headers: PromotionHeaders,
        response: { 200: PromotionResponse, ...errorResponses },
      }),
    },
    async (request) => {
      const amountCents = await claimPromotion(
        deps,
        request.auth.id,
        kind,
        request.headers[IDEMPOTENCY_HEADER],
      );
      return { status: true, code: Code.Success, Params: { amount: amountCents } };
    },
  );
  promotionRoute(ApiPath.discount, PromotionKind.Discount);
  promotionRoute(ApiPath.bonus, PromotionKind.Bonus);
};
