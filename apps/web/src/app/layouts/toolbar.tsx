import { Language } from '@reel/protocol/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconButton } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LanguageSelect } from '@/components/language-select';
import { Logo } from '@/components/logo';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { paths } from '@/config/paths';
import { Shortcuts, ToolbarSearch } from '@/features/search';
import { WalletBalance, WalletToggle } from '@/features/wallet';
import { useAuthStore } from '@/lib/auth-store';
import { useUserSettings } from '@/lib/user-settings';
import { LastLoginBlock } from './last-login';
import { useNavbarStore } from './navbar-store';
import { PanelButtons } from './panel-buttons';
import { useNavigationItems } from './use-navigation';

function InfoButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const user = useAuthStore((state) => state.user);
  return (
    <>
      <IconButton icon="info" label={t('toolbar.info')} onClick={() => setOpen(true)} />
      <Dialog open={open} onClose={() => setOpen(false)} title={t('toolbar.infoTitle')} closeLabel={t('common.close')}>
        {user ? (
          <p>
            <strong>
              {user.name} {user.lastname}
            </strong>{' '}
            <span className="muted">@{user.username}</span>
          </p>
        ) : null}
        <LastLoginBlock />
        {user?.versions ? (
          <p className="muted small">
            {t('navbar.versions')}: {user.versions}
          </p>
        ) : null}
      </Dialog>
    </>
  );
}

export function Toolbar({ showMenuButton, showLogo }: { showMenuButton: boolean; showLogo: boolean }) {
  const { t } = useTranslation();
  const toggleMobile = useNavbarStore((state) => state.toggleMobile);
  const mobileOpen = useNavbarStore((state) => state.mobileOpen);
  const langSelect = useRuntimeSettings((state) => state.settings.LANG_SELECT);
  const theme = useUserSettings((state) => state.settings.theme.toolbar);
  const { flat } = useNavigationItems();
  return (
    <header className="toolbar" data-theme={theme}>
      <div className="toolbar__start">
        {showMenuButton ? (
          <IconButton icon="menu" label={t('nav.openNavigation')} aria-expanded={mobileOpen} onClick={toggleMobile} className="toolbar__menu" />
        ) : null}
        {showLogo ? (
          <Link to={paths.lobby} className="toolbar__logo">
            <Logo label={t('nav.lobby')} />
          </Link>
        ) : null}
        <Shortcuts items={flat} />
        <ToolbarSearch items={flat} />
      </div>
      <div className="toolbar__end">
        <div className="toolbar__panels">
          <PanelButtons />
        </div>
        <div className="toolbar__wallet">
          <WalletBalance />
          <WalletToggle />
        </div>
        {langSelect ? <LanguageSelect languages={[Language.tr, Language.en]} className="toolbar__lang" /> : null}
        <InfoButton />
      </div>
    </header>
  );
}
