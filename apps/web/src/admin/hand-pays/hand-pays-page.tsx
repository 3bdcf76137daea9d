import { useTranslation } from 'react-i18next';

export function HandPaysPage() {
  const { t } = useTranslation('admin');
  return (
    <section className="admin-page">
      <h1>{t('handPays.heading')}</h1>
    </section>
  );
}
