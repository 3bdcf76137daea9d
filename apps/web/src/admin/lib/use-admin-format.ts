import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/i18n';
import { useMoney } from '@/lib/use-money';

/** Money in the configured currency and dates in the console's language; '—' for nothing. */
export function useAdminFormat() {
  const { i18n } = useTranslation('admin');
  const money = useMoney();
  return {
    money,
    date: (iso: string | null | undefined) => formatDateTime(iso, i18n.language) ?? '—',
  };
}
