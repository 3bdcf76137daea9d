import { ApiPath, type SlotSessionPage, type SlotSessionRow } from '@reel/protocol/client';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** A session closes a moment after the game screen leaves it: its row is asked for again until it shows an end. */
const RETRY_MS = 1_000;
const MAX_TRIES = 15;

/** The player's /slot-sessions row of a session just left (the newest rows come first). */
export function useClosedSessionRow(sessionId: string | null) {
  return useQuery({
    queryKey: ['closed-session', sessionId],
    enabled: sessionId !== null,
    queryFn: async ({ signal }): Promise<SlotSessionRow | null> => {
      const page = await api.get<SlotSessionPage>(ApiPath.slotSessions, { signal, query: { limit: 10 } });
      return page.items.find((row) => row.id === sessionId) ?? null;
    },
    refetchInterval: (query) => (query.state.data?.end || query.state.dataUpdateCount >= MAX_TRIES ? false : RETRY_MS),
  });
}
