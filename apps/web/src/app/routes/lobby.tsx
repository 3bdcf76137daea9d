import { LobbyGroupPage, LobbyPage } from '@/features/lobby';
import { SessionSummary } from '@/features/protection';
import { QueryRoot } from '@/lib/query-client';

export { prefetchLobby } from '@/features/lobby';

export function LobbyRoute() {
  return (
    <QueryRoot>
      <SessionSummary />
      <LobbyPage />
    </QueryRoot>
  );
}

export function LobbyGroupRoute() {
  return (
    <QueryRoot>
      <LobbyGroupPage />
    </QueryRoot>
  );
}
