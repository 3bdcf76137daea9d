import { ApiPath, type Brand } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

export function getMachineBrands(signal?: AbortSignal): Promise<Brand[]> {
  return api.get<Brand[]>(ApiPath.machineBrands, { signal });
}
