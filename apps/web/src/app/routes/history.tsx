export { SlotSessionsPage as SlotSessionsRoute, TransactionsPage as TransactionsRoute } from '@/features/history';
