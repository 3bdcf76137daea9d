import { useTranslation } from 'react-i18next';

export function FloorPage() {
  const { t } = useTranslation('admin');
  return (
    <section className="admin-page">
      <h1>{t('floor.heading')}</h1>
    </section>
  );
}
