export { LobbyGroupPage, LobbyPage } from './components/lobby-pages';
