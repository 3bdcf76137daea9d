import { ApiPath, type SlotSessionPage, type SlotSessionRow, type TransactionRow } from '@reel/protocol/client';

export const HISTORY_KINDS = {
  slotSessions: { list: ApiPath.slotSessions, csv: ApiPath.slotSessionsCsv, file: 'slot-sessions.csv' },
  transactions: { list: ApiPath.transactions, csv: ApiPath.transactionsCsv, file: 'transactions.csv' },
} as const;
export type HistoryKind = keyof typeof HISTORY_KINDS;
export type RowOf<K extends HistoryKind> = K extends 'slotSessions' ? SlotSessionRow : TransactionRow;
/** One page of either history: the protocol's page with the kind's rows. */
export type PageOf<K extends HistoryKind> = Omit<SlotSessionPage, 'items'> & { items: RowOf<K>[] };

/** Search text is trimmed; the server matches case-insensitively. */
export function normaliseSearch(search: string): string {
  return search.trim();
}
