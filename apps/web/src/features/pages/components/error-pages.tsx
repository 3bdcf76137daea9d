import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="center-screen" id="main">
      <div className="error-page">
        <h1 className="error-page__code">{t('errors.notFoundTitle')}</h1>
        <p className="error-page__text">{t('errors.notFound')}</p>
        <Link className="btn btn--primary" to={paths.lobby}>
          {t('errors.goHome')}
        </Link>
      </div>
    </main>
  );
}

export function ServerErrorPage() {
  const { t } = useTranslation();
  return (
    <main className="center-screen" id="main">
      <div className="error-page">
        <h1 className="error-page__code">{t('errors.serverErrorTitle')}</h1>
        <p className="error-page__text">{t('errors.serverError')}</p>
        <Link className="btn btn--primary" to={paths.lobby}>
          {t('errors.goHome')}
        </Link>
      </div>
    </main>
  );
}
