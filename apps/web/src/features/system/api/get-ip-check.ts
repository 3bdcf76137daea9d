import type { CheckResponse } from '@reel/protocol/client';
import { checkUrl } from '@/lib/api-client';

/** `/check` sits beside the API, not under it, and answers before sign-in: plain fetch, no token. */
export async function getIpCheck(): Promise<CheckResponse> {
  const response = await fetch(checkUrl(), { cache: 'no-store' });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  return (await response.json()) as CheckResponse;
}
