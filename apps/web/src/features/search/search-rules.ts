import { SEARCH_SUGGESTIONS_MAX } from '@reel/protocol/client';

interface Searchable {
  id: string;
  title: string;
}

/** Trimmed, case-insensitive title match, at most 10 suggestions (spec sections 5 and 9). */
export function searchEntries<T extends Searchable>(
  entries: readonly T[],
  query: string,
  locale?: string,
): T[] {
  const needle = query.trim().toLocaleLowerCase(locale);
  if (!needle) return [];
  return entries
    .filter((entry) => entry.title.toLocaleLowerCase(locale).includes(needle))
    .slice(0, SEARCH_SUGGESTIONS_MAX);
}

export function toggleShortcut(shortcuts: readonly string[], id: string): string[] {
  return shortcuts.includes(id) ? shortcuts.filter((item) => item !== id) : [...shortcuts, id];
}
