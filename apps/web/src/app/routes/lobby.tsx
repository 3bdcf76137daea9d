export { LobbyGroupPage as LobbyGroupRoute, LobbyPage as LobbyRoute, prefetchLobby } from '@/features/lobby';
