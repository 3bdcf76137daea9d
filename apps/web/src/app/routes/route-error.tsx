import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { paths } from '@/config/paths';

/** Any render or loading error lands on a real 500 page instead of a blank screen. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (error) console.error(error);
  return (
    <main className="center-screen" id="main">
      <div className="error-page">
        <h1 className="error-page__code">{t('errors.serverErrorTitle')}</h1>
        <p className="error-page__text">{t('errors.serverError')}</p>
        <a className="btn btn--primary" href={paths.lobby}>
          {t('errors.goHome')}
        </a>
      </div>
    </main>
  );
}
