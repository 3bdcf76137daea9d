export { SlotSessionsPage, TransactionsPage } from './components/history-pages';
