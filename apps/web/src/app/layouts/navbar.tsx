import { useRef, useState } from 'react';
import { HOVER_MENU_DELAY_MS } from '@reel/protocol/client';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconButton } from '@/components/ui/button';
import { Logo } from '@/components/logo';
import { UserAvatar } from '@/components/user-avatar';
import { paths } from '@/config/paths';
import { BalanceSummary } from '@/features/wallet';
import { useAuthStore } from '@/lib/auth-store';
import { useUserSettings } from '@/lib/user-settings';
import { LastLoginBlock } from './last-login';
import { Navigation } from './navigation';
import { useNavbar } from './navbar-store';
import { PanelButtons } from './panel-buttons';
import { useNavigationItems } from './use-navigation';

function UserBlock() {
  const user = useAuthStore((state) => state.user);
  if (!user) return null;
  return (
    <div className="navbar__user">
      <UserAvatar name={user.name || user.username} photoURL={user.photoURL} size="large" />
      <p className="navbar__name">
        <span>{user.name}</span> <span>{user.lastname}</span>
      </p>
      <p className="navbar__username">@{user.username}</p>
      <BalanceSummary />
    </div>
  );
}

function NavbarContent({
  onItemClick,
  showFoldButton,
}: {
  onItemClick?: () => void;
  showFoldButton?: boolean;
}) {
  const { t } = useTranslation();
  const { tree } = useNavigationItems();
  const { folded, toggleFolded, closeMobile } = useNavbar();
  return (
    <div className="navbar__content">
      <div className="navbar__header">
        <Link to={paths.lobby} className="navbar__logo" onClick={onItemClick}>
          <Logo label={t('nav.lobby')} />
        </Link>
        {showFoldButton ? (
          <IconButton
            icon="menu"
            label={folded ? t('nav.unfold') : t('nav.fold')}
            pressed={folded}
            onClick={toggleFolded}
            className="navbar__fold"
          />
        ) : (
          <IconButton
            icon="close"
            label={t('nav.closeNavigation')}
            onClick={closeMobile}
            className="navbar__close"
          />
        )}
      </div>
      <UserBlock />
      <Navigation items={tree} label={t('nav.main')} onItemClick={onItemClick} />
      <div className="navbar__extras">
        <PanelButtons />
      </div>
      <LastLoginBlock />
    </div>
  );
}

/**
 * Temporary drawer: phones and tablets in every layout. Its content (balance, menu, last logon) is
 * built the first time it opens rather than in every signed-in page's first render, where it was a
 * good part of the lobby's first paint on a phone; it then stays, so closing slides it out whole.
 */
export function NavbarDrawer() {
  const { mobileOpen, closeMobile } = useNavbar();
  const theme = useUserSettings((state) => state.settings.theme.navbar);
  const [opened, setOpened] = useState(mobileOpen);
  if (mobileOpen && !opened) setOpened(true);
  return (
    <>
      <div
        className={`drawer-backdrop${mobileOpen ? ' drawer-backdrop--open' : ''}`}
        aria-hidden="true"
        onClick={closeMobile}
      />
      <aside
        className={`navbar navbar--drawer${mobileOpen ? ' navbar--open' : ''}`}
        data-theme={theme}
        inert={!mobileOpen}
        aria-hidden={!mobileOpen}
      >
        {opened ? <NavbarContent onItemClick={closeMobile} /> : null}
      </aside>
    </>
  );
}

/**
 * The desktop navbar (layout1 and layout3): folds to 64 px and reopens on hover after 150 ms,
 * closing again when the pointer leaves. In layout3 (slide-in) the hover-opened navbar slides over
 * the page instead of pushing it aside.
 */
export function NavbarRail({ slideIn = false }: { slideIn?: boolean }) {
  const { t } = useTranslation();
  const { folded, foldedOpen, setFoldedOpen } = useNavbar();
  const theme = useUserSettings((state) => state.settings.theme.navbar);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const enter = () => {
    if (!folded) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setFoldedOpen(true), HOVER_MENU_DELAY_MS);
  };
  const leave = () => {
    clearTimeout(timer.current);
    if (folded) setFoldedOpen(false);
  };
  return (
    <aside
      className={`navbar navbar--rail${slideIn ? ' navbar--slide-in' : ''}${folded ? ' navbar--folded' : ''}${folded && foldedOpen ? ' navbar--folded-open' : ''}`}
      data-theme={theme}
      aria-label={t('nav.navbar')}
      data-testid="navbar-rail"
      onMouseEnter={enter}
      onMouseLeave={leave}
    >
      <NavbarContent showFoldButton />
    </aside>
  );
}
