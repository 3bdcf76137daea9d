import { useCallback } from 'react';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { formatMoney } from '@/lib/money';

/** Cents in the configured currency and locale. */
export function useMoney() {
  const currency = useRuntimeSettings((state) => state.settings.CURRENCY);
  const locale = useRuntimeSettings((state) => state.settings.LOCALE);
  return useCallback((amountCents: number) => formatMoney(amountCents, currency, locale), [currency, locale]);
}
