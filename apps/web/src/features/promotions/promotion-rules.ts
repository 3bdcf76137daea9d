import { Code, PROMOTION_COOLDOWN_MS, type Settings } from '@reel/protocol/client';
import { local, StorageKey } from '@/lib/storage';

export type PromotionKind = 'discount' | 'bonus';

export interface PromotionRefusal {
  code: number;
  params: Record<string, number>;
}

type UsedAt = Partial<Record<PromotionKind, number>>;

export function readUsedAt(): UsedAt {
  try {
    const parsed = JSON.parse(local.get(StorageKey.promotionUsedAt) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as UsedAt) : {};
  } catch {
    return {};
  }
}

export function markUsed(kind: PromotionKind, nowMs = Date.now()): void {
  local.set(StorageKey.promotionUsedAt, JSON.stringify({ ...readUsedAt(), [kind]: nowMs }));
}

/**
 * The client-side rules of spec section 5, checked before calling the server (which enforces them
 * again): discount needs a balance below DISCOUNT_MIN when the check is on; each promotion once per
 * cooldown.
 */
export function checkPromotion(
  kind: PromotionKind,
  input: { balanceCents: number | null; settings: Pick<Settings, 'DISCOUNT_MIN' | 'DISCOUNT_BALANCE_CHECK'>; lastUsedAtMs?: number; nowMs?: number },
): PromotionRefusal | null {
  const now = input.nowMs ?? Date.now();
  if (input.lastUsedAtMs !== undefined && now - input.lastUsedAtMs < PROMOTION_COOLDOWN_MS) {
    return { code: Code.DiscountCooldown, params: {} };
  }
  if (
    kind === 'discount' &&
    input.settings.DISCOUNT_BALANCE_CHECK &&
    input.balanceCents !== null &&
    input.balanceCents >= input.settings.DISCOUNT_MIN
  ) {
    return { code: Code.DiscountBalanceTooHigh, params: { amount: input.settings.DISCOUNT_MIN } };
  }
  return null;
}
