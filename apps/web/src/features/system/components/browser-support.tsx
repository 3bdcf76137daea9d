import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icon';

export function supportsWebRtc(scope: Partial<Window> & Record<string, unknown> = window as never): boolean {
  return typeof scope.RTCPeerConnection === 'function' || typeof scope.webkitRTCPeerConnection === 'function';
}

/** Chrome, Chromium-based and Safari-family browsers; the banner nudges everyone else. */
export function isRecommendedBrowser(userAgent: string = navigator.userAgent): boolean {
  if (/Firefox|FxiOS|SamsungBrowser|OPR\/|Opera/i.test(userAgent)) return false;
  return /Chrome|Chromium|CriOS|Safari|HeadlessChrome/i.test(userAgent);
}

export function UnsupportedBrowserScreen() {
  const { t } = useTranslation();
  return (
    <main className="center-screen" id="main">
      <div className="card card--narrow center-text">
        <Icon name="warning" size={48} className="text-warning" />
        <h1>{t('unsupported.title')}</h1>
        <p>{t('unsupported.body')}</p>
        <p className="muted">{t('unsupported.vpn')}</p>
      </div>
    </main>
  );
}

export function BrowserBanner() {
  const { t } = useTranslation();
  if (isRecommendedBrowser()) return null;
  return (
    <div className="banner" role="note">
      <Icon name="info" size={18} />
      <span>{t('auth.browserBanner')}</span>
    </div>
  );
}

export function BrowserSupportGate({ children }: { children: ReactNode }) {
  if (!supportsWebRtc()) return <UnsupportedBrowserScreen />;
  return <>{children}</>;
}
