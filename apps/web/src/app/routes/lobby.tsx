export { LobbyGroupPage as LobbyGroupRoute, LobbyPage as LobbyRoute } from '@/features/lobby';
