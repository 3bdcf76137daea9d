import { ApiPath } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

/** `GET /player/session`: the same facts as the `session` push, for a page that just opened. */
interface OpenSessionResponse {
  show: boolean;
  id: number | null;
  name: string | null;
  machine_status: string | null;
  session_status: 'open' | 'disconnected' | null;
}

export function getOpenSession(signal?: AbortSignal): Promise<OpenSessionResponse> {
  return api.get<OpenSessionResponse>(ApiPath.openSession, { signal });
}
