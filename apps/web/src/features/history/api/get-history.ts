import { api } from '@/lib/api-client';
import { HISTORY_KINDS, normaliseSearch, type HistoryKind, type PageOf } from './history-kinds';

export function fetchHistoryPage<K extends HistoryKind>(
  kind: K,
  options: { search: string; limit: number; cursor?: string | null; signal?: AbortSignal },
) {
  return api.get<PageOf<K>>(HISTORY_KINDS[kind].list, {
    query: {
      search: normaliseSearch(options.search) || undefined,
      limit: options.limit,
      cursor: options.cursor ?? undefined,
    },
    signal: options.signal,
  });
}
