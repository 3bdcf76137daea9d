import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { ChatPanel } from '@/features/chat';
import { QuickPanel } from '@/features/quick-panel';
import { SettingsPanel } from '@/features/settings-panel';
import { MEDIA, useMediaQuery } from '@/lib/use-media-query';
import { useUserSettings } from '@/lib/user-settings';
import { IconButton } from '@/components/ui/button';
import { AdminBar } from './admin-bar';
import { Footer } from './footer';
import { NavbarDrawer, NavbarRail } from './navbar';
import { Navigation } from './navigation';
import { useNavbarStore } from './navbar-store';
import { PanelButtons } from './panel-buttons';
import { Toolbar } from './toolbar';
import { useNavigationItems } from './use-navigation';

function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href="#main">
      {t('common.skipToContent')}
    </a>
  );
}

/** Opens the navigation drawer while the toolbar, which holds its usual button, is hidden. */
function DrawerButton() {
  const { t } = useTranslation();
  const mobileOpen = useNavbarStore((state) => state.mobileOpen);
  const toggleMobile = useNavbarStore((state) => state.toggleMobile);
  return (
    <IconButton
      icon="menu"
      label={t('nav.openNavigation')}
      aria-expanded={mobileOpen}
      onClick={toggleMobile}
      className="layout__drawer-button"
    />
  );
}

function Panels() {
  return (
    <>
      <ChatPanel />
      <QuickPanel />
      <SettingsPanel />
    </>
  );
}

/**
 * layout1: vertical rail (desktop) + toolbar + footer; layout2: horizontal menu under the toolbar;
 * layout3 (main): optional admin bar, toolbar, and a navbar that is a drawer on phones and tablets
 * and, on desktop, a rail that folds to 64 px and slides in over the page on hover.
 * Any layout may be boxed (1280 / 1120 px, centred) instead of full width.
 */
export default function AppLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { style, mode, adminBar } = useUserSettings((state) => state.settings.layout);
  const hideHeader = useRuntimeSettings((state) => state.settings.HIDE_HEADER_BAR);
  const desktop = useMediaQuery(MEDIA.desktop);
  const { tree } = useNavigationItems();
  const rail = (style === 'layout1' || style === 'layout3') && desktop;
  const horizontal = style === 'layout2' && desktop;
  // HIDE_HEADER_BAR hides the toolbar, not what it holds: the navbar (drawer or rail) or, in layout2
  // on desktop, the horizontal menu carries the panel and promotion buttons instead, and the
  // drawer opens from a menu button of its own (docs/spec-decisions.md).
  const toolbar = hideHeader ? null : <Toolbar showMenuButton={!rail && !horizontal} showLogo={!rail} />;
  const drawerButton = hideHeader && !rail && !horizontal;
  const className = [
    'layout',
    `layout--${style}`,
    rail ? 'layout--rail' : '',
    `layout--${mode}`,
    hideHeader ? 'layout--headerless' : '',
    drawerButton ? 'layout--drawer-button' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className={className} data-mode={mode}>
      <SkipLink />
      {rail ? <NavbarRail slideIn={style === 'layout3'} /> : <NavbarDrawer />}
      {drawerButton ? <DrawerButton /> : null}
      <div className="layout__column">
        {style === 'layout3' && adminBar ? <AdminBar /> : null}
        {toolbar}
        {horizontal ? (
          <div className="layout__hnav">
            <Navigation items={tree} layout="horizontal" label={t('nav.main')} />
            {hideHeader ? <PanelButtons /> : null}
          </div>
        ) : null}
        <main id="main" className="layout__content" tabIndex={-1}>
          {children}
        </main>
        <Footer />
      </div>
      <Panels />
    </div>
  );
}
