import { Code } from '@reel/protocol/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { ApiError } from '@/lib/api-client';
import { messageForError } from '@/lib/auth';
import { translateCode } from '@/lib/i18n';
import { toast } from '@/lib/toast-store';
import { useMoney } from '@/lib/use-money';
import { claimPromotion } from '../api/claim-promotion';
import { checkPromotion, markUsed, readUsedAt, type PromotionKind } from '../promotion-rules';

function PromotionButton({ kind }: { kind: PromotionKind }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const money = useMoney();

  const claim = async () => {
    const refusal = checkPromotion({ lastUsedAtMs: readUsedAt()[kind] });
    if (refusal) {
      toast.error(translateCode(refusal.code));
      return;
    }
    setBusy(true);
    try {
      const response = await claimPromotion(kind);
      markUsed(kind);
      const amount = money(Number(response.Params?.amount ?? 0));
      toast.success(t(kind === 'discount' ? 'toolbar.discountSuccess' : 'toolbar.bonusSuccess', { amount }));
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.code === Code.DiscountBalanceTooHigh &&
        error.params.amount !== undefined
      ) {
        // The server's minimum (cents) in the player's currency format.
        toast.error(translateCode(error.code, { amount: money(Number(error.params.amount)) }, error.message));
      } else {
        if (error instanceof ApiError && error.code === Code.DiscountCooldown) markUsed(kind);
        toast.error(messageForError(error));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      variant="secondary"
      className={`promo promo--${kind}`}
      icon={kind === 'discount' ? 'percent' : 'gift'}
      busy={busy}
      onClick={claim}
    >
      {t(kind === 'discount' ? 'toolbar.discount' : 'toolbar.bonus')}
    </Button>
  );
}

export function PromotionButtons() {
  const discount = useRuntimeSettings((state) => state.settings.DISCOUNT);
  const bonus = useRuntimeSettings((state) => state.settings.BONUS);
  if (!discount && !bonus) return null;
  return (
    <div className="promotions">
      {discount ? <PromotionButton kind="discount" /> : null}
      {bonus ? <PromotionButton kind="bonus" /> : null}
    </div>
  );
}
