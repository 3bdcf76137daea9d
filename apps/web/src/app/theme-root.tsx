import { Layout } from '@reel/protocol/client';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { directionOf } from '@/lib/i18n';
import { useUserSettings } from '@/lib/user-settings';

/**
 * Applies the main theme, direction, scrollbar and animation settings to <html>, where the CSS
 * variables of every theme hang. Parts (navbar, toolbar, footer) set their own data-theme.
 */
/** The spec's shell sizes (section 9) live once, in the protocol; CSS reads them as variables. */
const LAYOUT_CSS_VARIABLES: Record<string, string> = {
  '--game-sidebar-width': `${Layout.sidebarWidth}px`,
  '--game-header-height': `${Layout.headerHeight}px`,
  '--navbar-width': `${Layout.navbarWidth}px`,
  '--navbar-folded-width': `${Layout.navbarFoldedWidth}px`,
  '--boxed-width': `${Layout.boxedWidths[0]}px`,
  '--boxed-width-narrow': `${Layout.boxedWidths[1]}px`,
};

function applyLayoutVariables(root: HTMLElement) {
  for (const [name, value] of Object.entries(LAYOUT_CSS_VARIABLES)) root.style.setProperty(name, value);
}

export function ThemeRoot({ children }: { children: ReactNode }) {
  const settings = useUserSettings((state) => state.settings);
  const { i18n } = useTranslation();
  const direction = directionOf(i18n.language) === 'rtl' ? 'rtl' : settings.direction;
  useEffect(() => {
    const root = document.documentElement;
    applyLayoutVariables(root);
    root.dataset.theme = settings.theme.main;
    root.dir = direction;
    root.lang = i18n.language;
    root.classList.toggle('custom-scrollbars', settings.customScrollbars);
    root.classList.toggle('no-animations', !settings.animations);
  }, [settings, direction, i18n.language]);
  return <>{children}</>;
}
