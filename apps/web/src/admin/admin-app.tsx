import type { AdminMeResponse } from '@reel/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Splash } from '@/components/ui/spinner';
import { adminApi } from './lib/admin-api';
import { AdminPath } from './lib/contract';
import { setOperator, signOutOperator, useOperatorSession } from './lib/operator-session';
import { AdminShell } from './shell/admin-shell';
import { SignInPage } from './sign-in/sign-in-page';
import './admin.css';

/** The console's own cache: nothing of the player's is shared, and signing out drops it whole. */
function createAdminQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } });
}

/** After a reload the stored token is asked who it belongs to (and the role the database holds now). */
function useStoredOperator(): 'checking' | 'ready' {
  const token = useOperatorSession((state) => state.token);
  const operator = useOperatorSession((state) => state.operator);
  const needsCheck = Boolean(token && !operator);
  useEffect(() => {
    if (!needsCheck) return;
    adminApi.get<AdminMeResponse>(AdminPath.me).then(
      (answer) => setOperator(answer.operator),
      () => signOutOperator(),
    );
  }, [needsCheck]);
  return needsCheck ? 'checking' : 'ready';
}

/** `/admin/*`: the operator console (its own bundle, src/admin/main.tsx). */
export function AdminApp() {
  const { t } = useTranslation('admin');
  const [queryClient, setQueryClient] = useState(createAdminQueryClient);
  const token = useOperatorSession((state) => state.token);
  const state = useStoredOperator();
  useEffect(() => {
    document.title = t('title');
  }, [t]);
  // A new operator starts with an empty cache.
  useEffect(() => {
    if (!token) setQueryClient(createAdminQueryClient());
  }, [token]);
  if (state === 'checking') return <Splash label={t('common.loading')} />;
  return <QueryClientProvider client={queryClient}>{token ? <AdminShell /> : <SignInPage />}</QueryClientProvider>;
}
