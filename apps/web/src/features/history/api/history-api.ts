import { ApiPath, type SlotSessionRow, type TransactionRow } from '@reel/protocol/client';
import { api, apiDownload } from '@/lib/api-client';

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

export function fetchHistoryPage<K extends HistoryKind>(
  kind: K,
  options: { search: string; limit: number; cursor?: string | null; signal?: AbortSignal },
) {
  return api.get<Page<RowOf<K>>>(HISTORY_KINDS[kind].list, {
    query: { search: normaliseSearch(options.search) || undefined, limit: options.limit, cursor: options.cursor ?? undefined },
    signal: options.signal,
  });
}

export async function downloadHistory(kind: HistoryKind, search: string): Promise<void> {
  const blob = await apiDownload(HISTORY_KINDS[kind].csv, { query: { search: normaliseSearch(search) || undefined } });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = HISTORY_KINDS[kind].file;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
