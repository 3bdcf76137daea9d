/**
 * Claiming a promotion (discount or bonus): the credit, the per-player cooldown and the discount's
 * balance rule, all inside one money transaction.
 */
import {
  Code,
  PromotionKind,
  discountMinBalanceCents,
  messageFor,
  formatCents,
} from '@reel/protocol';
import type { LedgerDeps } from '../ledger/ledger-service.js';
import { AppError } from '../../lib/errors.js';
import { OperationKind } from '../ledger/ledger.js';
import { withMoney } from '../ledger/ledger-service.js';
import { readSettings } from '../settings/runtime-settings.js';

export type PromotionKindName = (typeof PromotionKind)[keyof typeof PromotionKind];

/** What a claim needs: the ledger, the promotions' amounts and cooldown, the runtime settings file. */
export interface PromotionDeps extends LedgerDeps {
  config: { promotions: { discountCents: number; bonusCents: number; cooldownMs: number }; settingsFile: string };
}

/**
 * Claims one promotion for a player. Exported for the CLI and tests; throws AppError 40202, 40203
 * or 40204. Returns the credited amount in cents.
 */
export async function claimPromotion(
  ctx: PromotionDeps,
  playerId: number,
  kind: PromotionKindName,
  idempotencyKey?: string,
): Promise<number> {
  const settings = ctx.config.promotions;
  const amountCents = kind === PromotionKind.Discount ? settings.discountCents : settings.bonusCents;
  // Settings.json's DISCOUNT / BONUS switch the promotion off for good, not only its button.
  const runtime = readSettings(ctx.config.settingsFile);
  const switchedOn = kind === PromotionKind.Discount ? runtime.DISCOUNT : runtime.BONUS;
  if (amountCents <= 0 || !switchedOn) throw new AppError(Code.PromotionDisabled, 403);

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

    const minCents = kind === PromotionKind.Discount ? discountMinBalanceCents(runtime) : null;
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

