import { useTranslation } from 'react-i18next';
import { Splash } from '@/components/ui/spinner';

export function RouteFallback() {
  const { t } = useTranslation();
  return <Splash label={t('common.loading')} />;
}
