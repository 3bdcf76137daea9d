import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { directionOf } from '@/lib/i18n';
import { useUserSettings } from '@/lib/user-settings';

/**
 * Applies the main theme, direction, scrollbar and animation settings to <html>, where the CSS
 * variables of every theme hang. Parts (navbar, toolbar, footer) set their own data-theme.
 */
export function ThemeRoot({ children }: { children: ReactNode }) {
  const settings = useUserSettings((state) => state.settings);
  const { i18n } = useTranslation();
  const direction = directionOf(i18n.language) === 'rtl' ? 'rtl' : settings.direction;
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = settings.theme.main;
    root.dir = direction;
    root.lang = i18n.language;
    root.classList.toggle('custom-scrollbars', settings.customScrollbars);
    root.classList.toggle('no-animations', !settings.animations);
  }, [settings, direction, i18n.language]);
  return <>{children}</>;
}
