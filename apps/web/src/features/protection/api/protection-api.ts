import { ApiPath, type BreakPeriod, type BreakResponse, type LimitKey, type LimitsResponse } from '@reel/protocol/client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const limitsQueryKey = ['player-limits'] as const;

export function useLimits() {
  return useQuery({ queryKey: limitsQueryKey, queryFn: ({ signal }) => api.get<LimitsResponse>(ApiPath.limits, { signal }) });
}

/** The server decides what applies at once and what waits; the page shows its answer. */
export function useLimitActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: limitsQueryKey });
  return {
    async set(key: LimitKey, value: number | null) {
      const answer = await api.put<LimitsResponse>(ApiPath.limits, { limits: [{ key, value }] });
      client.setQueryData(limitsQueryKey, answer);
    },
    async setRealityCheck(minutes: number) {
      client.setQueryData(limitsQueryKey, await api.put<LimitsResponse>(ApiPath.realityCheck, { minutes }));
    },
    async confirm(key: LimitKey) {
      await api.post(ApiPath.limitsConfirm, { key });
      await refresh();
    },
  };
}

/** Starts a cool-off or self-exclusion: the server signs the player out at once. */
export function takeBreak(period: BreakPeriod): Promise<BreakResponse> {
  return api.post<BreakResponse>(ApiPath.takeBreak, { period });
}

/** The player saw the reality check: the server lets the next spin through. */
export function acknowledgeRealityCheck(): Promise<unknown> {
  return api.post(ApiPath.realityCheckAck);
}
