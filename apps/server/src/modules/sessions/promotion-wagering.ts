/**
 * Promotion money keeps its kind through a machine (docs/money.md, "Promotion money on a machine").
 *
 * A cash in draws the wallet's parts in spend order (discount, bonus, credit, cash). The discount and
 * bonus parts it took are recorded on the session as promotion money on the machine, with a wagering
 * requirement: bets of `PROMOTION_WAGER_MULTIPLIER` × that amount on the machine. Each recorded game
 * counts its bet; once the requirement is met the promotion money counts as cash. At cash out:
 *
 * - requirement not met: the payout goes back to the bonus and discount parts first, up to the
 *   promotion amount on the machine (bonus first, then discount); the rest is cash;
 * - requirement met: everything is cash, and the promotion part of it is booked as its own Cash Out
 *   row tagged as wagered, so the history shows the conversion.
 *
 * The session's promotion state then starts again from zero. `credit` money counts as cash here.
 * The state's columns are written by session-repository.ts (the game's bet counts in `addCycle`).
 */
import { ActionCode, formatCents, type WalletPart } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import type { MoveFn } from '../ledger/ledger-service.js';
import { OperationKind } from '../ledger/ledger.js';
import { addPromotionMoney, addWageredPromotionMoney, clearPromotionMoney, removePromotionMoney } from './session-repository.js';

/** The session's promotion state, as its columns read (session-repository.ts writes them). */
export interface PromotionState {
  promo_bonus_cents: number;
  promo_discount_cents: number;
  promo_wager_left_cents: number;
  promo_wagered_cents: number;
}

export const PROMOTION_COLUMNS = 'promo_bonus_cents, promo_discount_cents, promo_wager_left_cents, promo_wagered_cents';

function wagerRequirementCents(promotionCents: number, multiplier: number): number {
  return Math.ceil(promotionCents * multiplier);
}

/** A cash in took `drawn` from the wallet: its promotion parts are now on the machine, locked. */
export async function lockPromotionMoney(tx: Queryable, sessionId: string, drawn: Partial<Record<WalletPart, number>>, multiplier: number) {
  const bonus = drawn.bonus ?? 0;
  const discount = drawn.discount ?? 0;
  if (bonus + discount === 0) return;
  const required = wagerRequirementCents(bonus + discount, multiplier);
  // No requirement configured: promotion money counts as cash on the machine at once.
  if (required === 0) await addWageredPromotionMoney(tx, sessionId, bonus + discount);
  else await addPromotionMoney(tx, sessionId, bonus, discount, required);
}

/** A refused cash in gave `returned` back to the wallet parts it came from: no longer on the machine. */
export async function unlockPromotionMoney(tx: Queryable, sessionId: string, returned: Partial<Record<WalletPart, number>>, multiplier: number) {
  const bonus = returned.bonus ?? 0;
  const discount = returned.discount ?? 0;
  if (bonus + discount === 0) return;
  await removePromotionMoney(tx, sessionId, bonus, discount, wagerRequirementCents(bonus + discount, multiplier));
}

export interface PayoutSplit {
  /** Back to the bonus and discount parts (requirement not met). */
  bonus: number;
  discount: number;
  /** Wagered promotion money paid as cash (its own history row). */
  converted: number;
  /** The rest, cash. */
  cash: number;
}

/** How `cents` paid off the machine is split by kind. */
function splitPayout(state: PromotionState, cents: number): PayoutSplit {
  const locked = state.promo_wager_left_cents > 0 ? state.promo_bonus_cents + state.promo_discount_cents : 0;
  const back = Math.min(locked, cents);
  const bonus = Math.min(state.promo_bonus_cents, back);
  const discount = back - bonus;
  const wagered = state.promo_wagered_cents + (state.promo_wager_left_cents > 0 ? 0 : state.promo_bonus_cents + state.promo_discount_cents);
  const converted = Math.min(wagered, cents - back);
  return { bonus, discount, converted, cash: cents - back - converted };
}

interface PayoutRequest {
  playerId: number;
  machineId: number;
  sessionId: string;
  /** Idempotency key of the cash row; the other rows add a suffix. */
  key: string;
  cents: number;
  state: PromotionState;
  multiplier: number;
  /** How the cash rows are booked: Cash Out (4), or Hand Pay (5) for a settlement. */
  cash: { kind: typeof OperationKind.CashOut | typeof OperationKind.HandPay; actionCode: ActionCode; tag?: string };
}

/**
 * Pays `cents` from the machine account to the player's wallet, each kind to its part, inside the
 * caller's transaction, and clears the session's promotion state (what was not paid back was lost
 * in play).
 */
export async function payOut(tx: Queryable, move: MoveFn, request: PayoutRequest): Promise<PayoutSplit> {
  const split = splitPayout(request.state, request.cents);
  const { playerId, machineId, sessionId } = request;
  const base = { playerId, machineId, sessionId, from: { kind: 'machine', machineId } as const };
  const notWagered = `promotion money not wagered yet (${formatCents(request.state.promo_wager_left_cents)} more in bets needed)`;
  for (const part of ['bonus', 'discount'] as const) {
    if (split[part] <= 0) continue;
    await move({
      ...base,
      kind: OperationKind.CashOut,
      actionCode: ActionCode.CashOut,
      idempotencyKey: `${request.key}:${part}`,
      to: { kind: 'wallet', playerId, part },
      amountCents: split[part],
      tag: `${notWagered}: back to ${part}`,
    });
  }
  if (split.converted > 0) {
    await move({
      ...base,
      kind: request.cash.kind,
      actionCode: request.cash.actionCode,
      idempotencyKey: `${request.key}:wagered`,
      to: { kind: 'wallet', playerId, part: 'cash' },
      amountCents: split.converted,
      tag: `promotion money wagered (${request.multiplier}× its amount in bets): ${formatCents(split.converted)} paid as cash`,
    });
  }
  if (split.cash > 0) {
    await move({
      ...base,
      kind: request.cash.kind,
      actionCode: request.cash.actionCode,
      idempotencyKey: request.key,
      to: { kind: 'wallet', playerId, part: 'cash' },
      amountCents: split.cash,
      ...(request.cash.tag ? { tag: request.cash.tag } : {}),
    });
  }
  await clearPromotionMoney(tx, sessionId);
  return split;
}
