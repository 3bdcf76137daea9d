import { ApiPath } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

/** Takes over a session that another tab or device is playing. */
export function kickSession(machineId: number): Promise<unknown> {
  return api.post(ApiPath.kick, { machineId });
}
