import type { Language } from '@reel/protocol/client';

/**
 * Language options (spec section 3: id, title, flag). Titles are the languages' own names, so a
 * player finds theirs whatever the interface language. Arabic has no single country; its flag is
 * Saudi Arabia's, the usual choice of Turkish gaming sites (docs/spec-decisions.md).
 */
export type FlagId = 'gb' | 'tr' | 'sa';

interface LanguageOption {
  id: Language;
  title: string;
  flag: FlagId;
}

export const LANGUAGE_OPTIONS: Record<Language, LanguageOption> = {
  en: { id: 'en', title: 'English', flag: 'gb' },
  tr: { id: 'tr', title: 'Türkçe', flag: 'tr' },
  ar: { id: 'ar', title: 'العربية', flag: 'sa' },
};
