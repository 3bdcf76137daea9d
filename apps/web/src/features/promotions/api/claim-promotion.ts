import { ApiPath, type PromotionResponse } from '@reel/protocol/client';
import { api } from '@/lib/api-client';
import type { PromotionKind } from '../promotion-rules';

/** Each claim carries its own idempotency key, so a retried request cannot pay twice. */
export function claimPromotion(kind: PromotionKind): Promise<PromotionResponse> {
  return api.get<PromotionResponse>(kind === 'discount' ? ApiPath.discount : ApiPath.bonus, {
    headers: { 'idempotency-key': crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}` },
  });
}
