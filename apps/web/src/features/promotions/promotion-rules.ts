import { Code, PROMOTION_COOLDOWN_MS } from '@reel/protocol/client';
import { local, StorageKey } from '@/lib/storage';

export type PromotionKind = 'discount' | 'bonus';

interface PromotionRefusal {
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
 * The one rule the browser keeps itself (spec section 5: "tracked in browser storage"): each
 * promotion once per cooldown. The discount's balance rule is the server's alone (it reads
 * DISCOUNT_MIN and DISCOUNT_BALANCE_CHECK from the runtime settings); the app shows its answer.
 */
export function checkPromotion(input: { lastUsedAtMs?: number; nowMs?: number }): PromotionRefusal | null {
  const now = input.nowMs ?? Date.now();
  if (input.lastUsedAtMs !== undefined && now - input.lastUsedAtMs < PROMOTION_COOLDOWN_MS) {
    return { code: Code.DiscountCooldown, params: {} };
  }
  return null;
}
