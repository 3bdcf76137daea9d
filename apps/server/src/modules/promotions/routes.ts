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
import { errorResponses } from '../../lib/route-schema.js';
import type { Api, AppContext, RouteModule } from '../../context.js';
import { claimPromotion, type PromotionKindName } from './claims.js';


function promotionRoute(app: Api, ctx: AppContext, path: string, kind: PromotionKindName) {
  app.get(
    path,
    {
      schema: {
        tags: ['player'],
        summary: kind === PromotionKind.Discount ? 'Claim the discount' : 'Claim the bonus',
        description:
          kind === PromotionKind.Discount
            ? 'Credits the configured discount (Params.amount, cents). 40202 when the balance is at or above the minimum (Params.amount) while the balance check is on; 40203 within the cooldown; 40204 while switched off (Settings.json DISCOUNT false, or a zero amount).'
            : 'Credits the configured bonus (Params.amount, cents). 40203 within the cooldown; 40204 while switched off (Settings.json BONUS false, or a zero amount).',
        security: [{ bearer: [] }],
        headers: PromotionHeaders,
        response: { 200: PromotionResponse, ...errorResponses },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const amountCents = await claimPromotion(
        ctx,
        request.auth.id,
        kind,
        request.headers[IDEMPOTENCY_HEADER],
      );
      return { status: true, code: Code.Success, Params: { amount: amountCents } };
    },
  );
}

export const promotionRoutes: RouteModule = async (app, ctx) => {
  promotionRoute(app, ctx, ApiPath.discount, PromotionKind.Discount);
  promotionRoute(app, ctx, ApiPath.bonus, PromotionKind.Bonus);
};
