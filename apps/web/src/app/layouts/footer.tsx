import { UI_VERSION } from '@reel/protocol/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { useUserSettings } from '@/lib/user-settings';

/**
 * The footer's information pages (spec section 2), in the spec's order, each shown in the 80 %
 * dialog. The first five are the product's own static pages (apps/web/public/info/, English and
 * Turkish; an operator may replace them). Paytables is generated from the cabinets' math by its own
 * route.
 */
interface InfoPage {
  id: string;
  title: string;
  src: (language: string) => string;
}
const staticPage = (id: string, title: string): InfoPage => ({
  id,
  title,
  src: (language) => `/info/${id}.html?lang=${language}`,
});
const INFO_PAGES: readonly InfoPage[] = [
  staticPage('password-reset', 'footer.passwordReset'),
  staticPage('game-rules', 'footer.gameRules'),
  staticPage('player-protection', 'footer.playerProtection'),
  staticPage('terms', 'footer.terms'),
  staticPage('privacy', 'footer.privacy'),
  // Generated from the cabinets' own tables (GET /machine/paytable), not a static file.
  { id: 'paytables', title: 'footer.paytables', src: (language) => `${paths.paytables}?lang=${language}` },
];

export function Footer() {
  const { t, i18n } = useTranslation();
  const externalInfo = useRuntimeSettings((state) => state.settings.EXTERNAL_INFO);
  const whatsapp = useRuntimeSettings((state) => state.settings.WHATSAPP_NUMBER);
  const theme = useUserSettings((state) => state.settings.theme.footer);
  const [page, setPage] = useState<InfoPage | null>(null);
  return (
    <footer className="footer" data-theme={theme}>
      {externalInfo ? (
        <nav className="footer__links" aria-label={t('footer.information')}>
          {INFO_PAGES.map((item) => (
            <button key={item.id} type="button" className="link-btn" onClick={() => setPage(item)}>
              {t(item.title)}
            </button>
          ))}
        </nav>
      ) : null}
      <div className="footer__end">
        {whatsapp ? (
          <a
            className="icon-btn footer__whatsapp"
            href={`https://wa.me/${whatsapp.replace(/[^\d]/g, '')}`}
            target="_blank"
            rel="noreferrer"
            aria-label={t('footer.quickContact')}
            title={t('footer.quickContact')}
          >
            <Icon name="whatsapp" size={22} />
          </a>
        ) : null}
        <span className="footer__version">
          {t('footer.uiVersion')} {UI_VERSION}
        </span>
      </div>
      <Dialog
        open={page !== null}
        onClose={() => setPage(null)}
        title={page ? t(page.title) : ''}
        className="dialog--info"
        closeLabel={t('common.close')}
      >
        {page ? <iframe className="info-frame" title={t(page.title)} src={page.src(i18n.language)} /> : null}
      </Dialog>
    </footer>
  );
}
