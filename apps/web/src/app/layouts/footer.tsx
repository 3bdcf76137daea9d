import { UI_VERSION } from '@reel/protocol/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { useUserSettings } from '@/lib/user-settings';

/** The footer's information pages; operators replace the files under public/info/. */
export const INFO_PAGES = [
  { id: 'password-reset', title: 'footer.passwordReset' },
  { id: 'game-rules', title: 'footer.gameRules' },
  { id: 'player-protection', title: 'footer.playerProtection' },
  { id: 'terms', title: 'footer.terms' },
  { id: 'privacy', title: 'footer.privacy' },
  // Generated from the cabinets' own tables (GET /machine/paytable), not a static file.
  { id: 'paytables', title: 'footer.paytables', src: paths.paytables },
] as const;

export function Footer() {
  const { t, i18n } = useTranslation();
  const externalInfo = useRuntimeSettings((state) => state.settings.EXTERNAL_INFO);
  const whatsapp = useRuntimeSettings((state) => state.settings.WHATSAPP_NUMBER);
  const theme = useUserSettings((state) => state.settings.theme.footer);
  const [page, setPage] = useState<(typeof INFO_PAGES)[number] | null>(null);
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
      <Dialog open={page !== null} onClose={() => setPage(null)} title={page ? t(page.title) : ''} className="dialog--info" closeLabel={t('common.close')}>
        {page ? <iframe className="info-frame" title={t(page.title)} src={`${'src' in page ? page.src : `/info/${page.id}.html`}?lang=${i18n.language}`} /> : null}
      </Dialog>
    </footer>
  );
}
