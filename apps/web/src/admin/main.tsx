import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { ThemeRoot } from '@/app/theme-root';
import { Toaster } from '@/components/ui/toaster';
import { loadRuntimeSettings } from '@/config/runtime-settings';
import { initI18n } from '@/lib/i18n';
import { AdminApp } from './admin-app';
import { loadAdminTexts } from './lib/admin-texts';
import '@/styles/index.css';

/** Everything under /admin is the console; anything else on this page belongs to the player's app. */
const router = createBrowserRouter([
  { path: '/admin/*', element: <AdminApp /> },
  { path: '*', element: <Navigate to="/admin" replace /> },
]);

async function start(): Promise<void> {
  const settings = await loadRuntimeSettings();
  await initI18n(settings.DEFAULT_LANGUAGE);
  await loadAdminTexts();
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from shells/admin.html');
  createRoot(container).render(
    <ThemeRoot>
      <RouterProvider router={router} />
      <Toaster />
    </ThemeRoot>,
  );
}

void start();
