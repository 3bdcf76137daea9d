import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { ChatPanel } from '@/features/chat';
import { QuickPanel } from '@/features/quick-panel';
import { SettingsPanel } from '@/features/settings-panel';
import { MEDIA, useMediaQuery } from '@/lib/use-media-query';
import { useUserSettings } from '@/lib/user-settings';
import { Footer } from './footer';
import { NavbarDrawer, NavbarRail } from './navbar';
import { Navigation } from './navigation';
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
 * layout3 (main): toolbar on top and a slide-in navbar on every screen size.
 */
export default function AppLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const style = useUserSettings((state) => state.settings.layout.style);
  const hideHeader = useRuntimeSettings((state) => state.settings.HIDE_HEADER_BAR);
  const desktop = useMediaQuery(MEDIA.desktop);
  const { tree } = useNavigationItems();
  const rail = style === 'layout1' && desktop;
  const horizontal = style === 'layout2' && desktop;
  const toolbar = hideHeader ? null : <Toolbar showMenuButton={!rail && !horizontal} showLogo={!rail} />;

  return (
    <div className={`layout layout--${style}${rail ? ' layout--rail' : ''}`}>
      <SkipLink />
      {rail ? <NavbarRail /> : <NavbarDrawer />}
      <div className="layout__column">
        {toolbar}
        {horizontal ? (
          <div className="layout__hnav">
            <Navigation items={tree} layout="horizontal" label={t('nav.main')} />
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
