import { RootPath } from '@reel/protocol/client';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icon';
import { INFO_PAGES } from '@/config/info-pages';
import { backendUrl } from '@/lib/api-client';
import { usePageTexts } from '../page-texts';
import { GUIDE_SECTIONS, GuideSectionText } from './player-guide';

/** `/documentation`: how the product works, for a player, and where its API is described. */
export function DocumentationPage() {
  const { t } = usePageTexts();
  const { t: tApp, i18n } = useTranslation();
  return (
    <div className="page docs">
      <header className="page__header">
        <h1>{t('documentation.title')}</h1>
        <p className="docs__intro">{t('documentation.intro')}</p>
      </header>
      <div className="docs__grid">
        <article className="card guide" aria-labelledby="docs-guide">
          <h2 id="docs-guide" className="card__title">
            {t('documentation.guide')}
          </h2>
          {GUIDE_SECTIONS.map((section) => (
            <GuideSectionText key={section} section={section} headingLevel={3} />
          ))}
        </article>
        <aside className="docs__side">
          <section className="card" aria-labelledby="docs-api">
            <h2 id="docs-api" className="card__title">
              {t('documentation.apiTitle')}
            </h2>
            <p>{t('documentation.apiBody')}</p>
            {/* The API's own docs live with the backend, wherever API_URL points. */}
            <a className="btn btn--secondary" href={backendUrl(RootPath.docs)} target="_blank" rel="noreferrer">
              <Icon name="open" size={20} />
              <span>{t('documentation.apiLink')}</span>
              <span className="visually-hidden"> {t('search.opensInNewTab')}</span>
            </a>
          </section>
          <nav className="card" aria-label={tApp('footer.information')}>
            <h2 className="card__title">{tApp('footer.information')}</h2>
            <ul className="docs__links">
              {INFO_PAGES.map((page) => (
                <li key={page.id}>
                  <a href={page.src(i18n.language)} target="_blank" rel="noreferrer">
                    {tApp(page.title)}
                    <span className="visually-hidden"> {t('search.opensInNewTab')}</span>
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </aside>
      </div>
    </div>
  );
}
