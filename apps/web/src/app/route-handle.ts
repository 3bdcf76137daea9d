import type { AuthList } from '@/lib/auth-rules';

/** What a route tells the shell: who may see it, whether chrome shows, which background it wears. */
export interface RouteHandle {
  auth?: AuthList;
  chrome?: 'full' | 'none';
  background?: 'lobby' | 'game';
  /**
   * Starts the page's first data request at start-up, with the start-up token, while that token is
   * still being checked; the page takes the answer when it mounts.
   */
  preloadData?: () => Promise<unknown>;
}
