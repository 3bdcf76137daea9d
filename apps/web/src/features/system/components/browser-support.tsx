import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icon';
import { isRecommendedBrowser, isSupportedBrowser } from '../browser-rules';

function UnsupportedBrowserScreen() {
  const { t } = useTranslation();
  return (
    <main className="center-screen" id="main" data-testid="unsupported-browser">
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
  if (isRecommendedBrowser(navigator.userAgent)) return null;
  return (
    <div className="banner" role="note">
      <Icon name="info" size={18} />
      <span>{t('auth.browserBanner')}</span>
    </div>
  );
}

/** Anything but a Chrome or Safari-family browser with WebRTC gets the unsupported screen (spec section 1). */
export function BrowserSupportGate({ children }: { children: ReactNode }) {
  if (!isSupportedBrowser(navigator.userAgent, window as never)) return <UnsupportedBrowserScreen />;
  return <>{children}</>;
}
