import { apiDownload } from '@/lib/api-client';
import { HISTORY_KINDS, normaliseSearch, type HistoryKind } from './history-kinds';

/** Saves the list as the server's CSV under the kind's file name. */
export async function downloadHistory(kind: HistoryKind, search: string): Promise<void> {
  const blob = await apiDownload(HISTORY_KINDS[kind].csv, {
    query: { search: normaliseSearch(search) || undefined },
  });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = HISTORY_KINDS[kind].file;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
