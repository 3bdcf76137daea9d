import { ApiPath } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

/** Gives up a session that is waiting or in a bonus, without playing it on. */
export function cancelSession(machineId: number): Promise<unknown> {
  return api.post(ApiPath.cancel, { machineId });
}
