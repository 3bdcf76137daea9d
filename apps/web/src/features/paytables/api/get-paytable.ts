import { ApiPath, type PaytableResponse } from '@reel/protocol/client';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

function getPaytable(signal?: AbortSignal): Promise<PaytableResponse> {
  return api.get<PaytableResponse>(ApiPath.paytable, { signal });
}

export function usePaytable() {
  return useQuery({ queryKey: ['paytable'], queryFn: ({ signal }) => getPaytable(signal) });
}
