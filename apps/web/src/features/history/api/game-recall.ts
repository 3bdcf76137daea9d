import { ApiPath, type GameRecallResponse } from '@reel/protocol/client';
import { useQuery } from '@tanstack/react-query';
import { api, apiDownload } from '@/lib/api-client';

const gamesPath = (sessionId: string) => ApiPath.sessionGames.replace(':id', encodeURIComponent(sessionId));

/** The session's last 10 games from the server's records; `version` changes when a game was played. */
export function useGameRecall(sessionId: string, version?: string | number) {
  return useQuery({
    queryKey: ['game-recall', sessionId, version ?? null],
    queryFn: ({ signal }) => api.get<GameRecallResponse>(gamesPath(sessionId), { signal }),
  });
}

/** Saves every game of the session as the server's CSV. */
export async function downloadSessionGames(sessionId: string): Promise<void> {
  const blob = await apiDownload(ApiPath.sessionGamesCsv.replace(':id', encodeURIComponent(sessionId)));
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = `session-${sessionId}-games.csv`;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
