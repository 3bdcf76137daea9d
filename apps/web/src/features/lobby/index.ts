export { LobbyGroupPage, LobbyPage } from './components/lobby-pages';
export { prefetchLobby } from './stores/lobby-store';
