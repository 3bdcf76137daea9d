import { QueryClient } from '@tanstack/react-query';

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
