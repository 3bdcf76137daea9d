import type { AuthList } from '@/lib/auth-rules';

/** What a route tells the shell: who may see it, whether chrome shows, which background it wears. */
export interface RouteHandle {
  auth?: AuthList;
  chrome?: 'full' | 'none';
  background?: 'lobby' | 'game';
}
