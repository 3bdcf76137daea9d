export { SlotSessionsPage, TransactionsPage, formatDuration } from './components/history-pages';
export { normaliseSearch } from './api/history-kinds';
