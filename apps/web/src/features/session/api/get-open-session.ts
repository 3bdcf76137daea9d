import { ApiPath, type OpenSessionResponse } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

/** `GET /player/session`: the same facts as the `session` push, for a page that just opened. */
export function getOpenSession(signal?: AbortSignal): Promise<OpenSessionResponse> {
  return api.get<OpenSessionResponse>(ApiPath.openSession, { signal });
}
