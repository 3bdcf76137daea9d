export { SlotSessionsPage, TransactionsPage } from './components/history-pages';
export { GameRecall } from './components/game-recall';
