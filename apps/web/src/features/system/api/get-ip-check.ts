import type { CheckResponse } from '@reel/protocol/client';
import { checkUrl } from '@/lib/api-client';

/** `/check` sits beside the API, not under it, and answers before sign-in: plain fetch, no token. */
async function fetchIpCheck(): Promise<CheckResponse> {
  const response = await fetch(checkUrl(), { cache: 'no-store' });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  return (await response.json()) as CheckResponse;
}

let early: Promise<CheckResponse> | null = null;

/**
 * Asks `/check` as soon as the runtime settings (its base) are known, before the first render;
 * the gate takes that answer instead of asking once it has mounted.
 */
export function startIpCheck(): void {
  early ??= fetchIpCheck();
  // The gate reports a failure when it takes the answer; nothing is unhandled meanwhile.
  early.catch(() => undefined);
}

/** The early answer once (see startIpCheck), otherwise a fresh request. */
export function getIpCheck(): Promise<CheckResponse> {
  const answer = early ?? fetchIpCheck();
  early = null;
  return answer;
}
