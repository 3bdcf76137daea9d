export { LobbyGroupPage, LobbyPage } from './components/lobby-pages';
export { prefetchLobby } from './api/lobby-live';
