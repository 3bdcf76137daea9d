import { useTranslation } from 'react-i18next';

export function SupportPage() {
  const { t } = useTranslation('admin');
  return (
    <section className="admin-page">
      <h1>{t('support.heading')}</h1>
    </section>
  );
}
