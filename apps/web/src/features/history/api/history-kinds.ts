import { ApiPath, type SlotSessionRow, type TransactionRow } from '@reel/protocol/client';

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export const HISTORY_KINDS = {
  slotSessions: { list: ApiPath.slotSessions, csv: ApiPath.slotSessionsCsv, file: 'slot-sessions.csv' },
  transactions: { list: ApiPath.transactions, csv: ApiPath.transactionsCsv, file: 'transactions.csv' },
} as const;
export type HistoryKind = keyof typeof HISTORY_KINDS;
export type RowOf<K extends HistoryKind> = K extends 'slotSessions' ? SlotSessionRow : TransactionRow;

/** Search text is trimmed; the server matches case-insensitively. */
export function normaliseSearch(search: string): string {
  return search.trim();
}
