import { useTranslation } from 'react-i18next';
import { Splash } from '@/components/ui/spinner';

/** The template's OAuth callback: guests only, a splash while a provider would hand over. */
export function CallbackPage() {
  const { t } = useTranslation();
  return <Splash label={t('common.loading')} />;
}
