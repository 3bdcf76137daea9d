import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { loadRuntimeSettings } from '@/config/runtime-settings';
import { bootstrapAuth } from '@/lib/auth';
import { fetchLanguage, initI18n, preferredLanguage } from '@/lib/i18n';
import { loadGuestSettings } from '@/lib/user-settings';
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
  const settings = await loadRuntimeSettings();
  await early;
  await initI18n(settings.DEFAULT_LANGUAGE);
  loadGuestSettings();
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  createRoot(container).render(<App />);
  await bootstrapAuth();
}

void start();
