export { LobbyGroupPage, LobbyPage } from './components/lobby-pages';
export { useLobbyStore, queueMachineUpdate, flushMachineUpdates, setLobby } from './stores/lobby-store';
export { normaliseLobby } from './api/get-lobby';
