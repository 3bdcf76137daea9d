import { ApiPath } from '@reel/protocol/client';
import { api } from '@/lib/api-client';
import type { LobbyAnswer } from './lobby-answer';

export function getAllMachines(signal?: AbortSignal): Promise<LobbyAnswer> {
  return api.get<LobbyAnswer>(ApiPath.machineAll, { signal });
}
