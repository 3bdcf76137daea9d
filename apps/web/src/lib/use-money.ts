import { useCallback } from 'react';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { formatMoney } from '@/lib/money';

/** Cents in the operator's configured currency and locale: the one formatter every screen shares. */
export function useMoney(): (amountCents: number) => string {
  const currency = useRuntimeSettings((state) => state.settings.CURRENCY);
  const locale = useRuntimeSettings((state) => state.settings.LOCALE);
  return useCallback((amountCents: number) => formatMoney(amountCents, currency, locale), [currency, locale]);
}
