import { LobbyGroupPage, LobbyPage } from '@/features/lobby';
import { QueryRoot } from '@/lib/query-client';

export { prefetchLobby } from '@/features/lobby';

export function LobbyRoute() {
  return (
    <QueryRoot>
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
