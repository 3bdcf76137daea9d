import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { preloadSignedInChunks, preloadSignedInData } from '@/app/root-layout';
import { router } from '@/app/router';
import { loadRuntimeSettings } from '@/config/runtime-settings';
import { startIpCheck } from '@/features/system';
import { bootstrapAuth, hasStartupToken, prepareAuth } from '@/lib/auth';
import { fetchLanguage, initI18n, preferredLanguage } from '@/lib/i18n';
import { prepareMoneyFormatter } from '@/lib/money';
import { loadGuestSettings } from '@/lib/user-settings';
import type { RouteHandle } from '@/app/route-handle';
import '@/styles/index.css';

/** A service worker from an older deployment would serve stale bundles; the app runs without one. */
function unregisterServiceWorkers(): void {
  if (!('serviceWorker' in navigator)) return;
  void navigator.serviceWorker
    .getRegistrations()
    .then((registrations) => Promise.all(registrations.map((registration) => registration.unregister())))
    .catch(() => undefined);
}

async function start(): Promise<void> {
  unregisterServiceWorkers();
  // The stored language is known before Settings.json arrives; fetch both at once.
  const early = fetchLanguage(preferredLanguage()).catch(() => undefined);
  const settingsLoaded = loadRuntimeSettings();
  const handles = router.state.matches.map((match) => match.route.handle as RouteHandle | undefined);
  const signedIn = hasStartupToken();
  // With a token the signed-in chrome downloads while the settings, /check and /validate are asked.
  if (signedIn) preloadSignedInChunks(handles);
  const settings = await settingsLoaded;
  // /check needs only the settings (its base): ask it while the texts load and the app renders.
  // With the country policy off (the server reports its IP_CHECK as IP_CHEKCING) nothing waits on it.
  if (settings.IP_CHEKCING) startIpCheck();
  prepareAuth();
  // The page's own data too (the lobby's machine list): it no longer waits for /validate.
  if (signedIn) preloadSignedInData(handles);
  await early;
  await initI18n(settings.DEFAULT_LANGUAGE);
  loadGuestSettings();
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  createRoot(container).render(<App />);
  // The token check leaves the main thread waiting: the money formatter of the signed-in page's
  // first render is made then, in a task of its own.
  if (signedIn) setTimeout(() => prepareMoneyFormatter(settings.CURRENCY, settings.LOCALE), 0);
  await bootstrapAuth();
}

void start();
