import { ApiPath } from '@reel/protocol/client';
import { api } from '@/lib/api-client';
import type { LobbyAnswer } from './lobby-answer';

/** `GET /machine/{id}`: one brand's machines, for single-lobby mode. */
export function getBrandMachines(brandId: number, signal?: AbortSignal): Promise<LobbyAnswer> {
  return api.get<LobbyAnswer>(ApiPath.machineById.replace(':id', String(brandId)), { signal });
}
