import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { logout } from '@/lib/auth';

export function LogoutPage() {
  const { t } = useTranslation();
  useEffect(() => {
    void logout();
  }, []);
  return (
    <main className="center-screen" id="main">
      <div className="center-text" role="status">
        <span className="spinner" aria-hidden="true" />
        <h1 className="h2">{t('auth.loggingOut')}</h1>
      </div>
    </main>
  );
}
