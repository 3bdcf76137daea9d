import { UI_VERSION } from '@reel/protocol/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icon';
import { INFO_PAGES, type InfoPage } from '@/config/info-pages';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { useUserSettings } from '@/lib/user-settings';

/** Footer: the information pages (when EXTERNAL_INFO is on) in the 80 % dialog, quick contact, UI version. */
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
