/**
 * `GET /player/discount` and `GET /player/bonus` (spec sections 5 and 7): a fixed amount credited to
 * the wallet's discount or bonus part from the promotions account. The browser's cooldown is only a
 * hint; the server enforces one claim per cooldown per player and kind inside the money transaction.
 * The discount's balance rule is the runtime settings' (`DISCOUNT_MIN`, `DISCOUNT_BALANCE_CHECK` in
 * Settings.json, read per claim so an operator's change applies at once); the web app has no copy.
 */
import { Type } from 'typebox';
import {
  ApiPath,
  Code,
  IDEMPOTENCY_HEADER,
  PromotionKind,
  Text,
  PromotionResponse,
  discountMinBalanceCents,
  messageFor,
  formatCents,
} from '@reel/protocol';
import { errorResponses } from '../../lib/route-schema.js';
import type { Api, AppContext, RouteModule } from '../../context.js';
import { AppError } from '../../lib/errors.js';
import { OperationKind } from '../ledger/ledger.js';
import { withMoney } from '../ledger/ledger-service.js';
import { readSettings } from '../site/routes.js';

type Kind = (typeof PromotionKind)[keyof typeof PromotionKind];


const PromotionHeaders = Type.Object({
  [IDEMPOTENCY_HEADER]: Type.Optional(
    Text({
      minLength: 1,
      maxLength: 100,
      description:
        'Optional; a retry with the same key answers the first claim again instead of a cooldown error',
    }),
  ),
});

/**
 * Claims one promotion for a player. Exported for the CLI and tests; throws AppError 40202, 40203
 * or 40204. Returns the credited amount in cents.
 */
export async function claimPromotion(
  ctx: Pick<AppContext, 'db' | 'bus' | 'config'>,
  playerId: number,
  kind: Kind,
  idempotencyKey?: string,
): Promise<number> {
  const settings = ctx.config.promotions;
  const amountCents = kind === PromotionKind.Discount ? settings.discountCents : settings.bonusCents;
  if (amountCents <= 0) throw new AppError(Code.PromotionDisabled, 403);

  return withMoney(ctx, async (tx, move) => {
    // The move comes first: it takes the idempotency key (a concurrent retry waits on it) and locks
    // the player's wallet rows, so the balance below cannot change until this transaction ends.
    const moved = await move({
      kind: kind === PromotionKind.Discount ? OperationKind.Discount : OperationKind.Bonus,
      playerId,
      idempotencyKey,
      from: { kind: 'promotions' },
      to: { kind: 'wallet', playerId, part: kind },
      amountCents,
      tag: kind,
    });
    if (moved.replayed) return moved.amountCents;

    // Insert-or-update in one statement: concurrent claims queue on the row, and each one re-checks
    // the cooldown against the committed claim time of the one before it. clock_timestamp(), not
    // now(): a transaction that started before the previous claim committed must not look older.
    const claimed = await tx.query(
      `INSERT INTO promotion_claims (player_id, kind, last_claim_at) VALUES ($1, $2, clock_timestamp())
       ON CONFLICT (player_id, kind) DO UPDATE SET last_claim_at = excluded.last_claim_at
        WHERE promotion_claims.last_claim_at <= clock_timestamp() - make_interval(secs => $3::double precision / 1000)`,
      [playerId, kind, settings.cooldownMs],
    );
    if (claimed.rowCount === 0) throw new AppError(Code.DiscountCooldown, 409);

    const minCents = kind === PromotionKind.Discount ? discountMinBalanceCents(readSettings(ctx.config.settingsFile)) : null;
    if (minCents !== null) {
      const balanceBeforeCents = moved.wallets.get(playerId)!.balance - amountCents;
      if (balanceBeforeCents >= minCents) {
        throw new AppError(
          Code.DiscountBalanceTooHigh,
          409,
          { amount: minCents },
          // Params.amount stays in cents (the contract); the text shows it as money.
          messageFor(Code.DiscountBalanceTooHigh, 'en', { amount: formatCents(minCents) }),
        );
      }
    }
    return amountCents;
  });
}

function promotionRoute(app: Api, ctx: AppContext, path: string, kind: Kind) {
  app.get(
    path,
    {
      schema: {
        tags: ['player'],
        summary: kind === PromotionKind.Discount ? 'Claim the discount' : 'Claim the bonus',
        description:
          kind === PromotionKind.Discount
            ? 'Credits the configured discount (Params.amount, cents). 40202 when the balance is at or above the minimum (Params.amount) while the balance check is on; 40203 within the cooldown; 40204 when switched off.'
            : 'Credits the configured bonus (Params.amount, cents). 40203 within the cooldown; 40204 when switched off.',
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
