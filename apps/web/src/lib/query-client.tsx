import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * Screens load their data when they are shown and show their own error with a Retry button, so a
 * failed call is not retried behind the player's back, and returning to the tab does not reload.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

/**
 * Wraps the lazily loaded screens that fetch through TanStack Query (one client, one cache): the
 * library then loads with those screens, not with /login's first bundle (its 160 KB budget). Code
 * outside React (the lobby's live pushes, its start-up request) writes into the same client.
 */
export function QueryRoot({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
