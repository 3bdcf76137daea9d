import { catalogue, DEFAULT_LANGUAGE, Language, RTL_LANGUAGES, type Params } from '@reel/protocol/client';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Translation } from '@/locales/en';
import { local, StorageKey } from './storage';

const LANGUAGES = [Language.tr, Language.en, Language.ar] as const;

/** The protocol catalogue uses `{name}`; i18next interpolates `{{name}}`. */
function catalogueCodes(language: 'en' | 'tr'): Record<string, string> {
  const codes: Record<string, string> = {};
  for (const [code, texts] of Object.entries(catalogue)) {
    codes[code] = texts[language].replace(/\{(\w+)\}/g, '{{$1}}');
  }
  return codes;
}

/** Each language is its own chunk; only the one in use is downloaded. */
const loaders: Record<Language, () => Promise<Translation>> = {
  en: () => import('@/locales/en').then((m) => ({ ...m.en, codes: catalogueCodes('en') })),
  tr: () => import('@/locales/tr').then((m) => ({ ...m.tr, codes: catalogueCodes('tr') })),
  ar: () => import('@/locales/ar').then((m) => m.ar),
};

const bundles = new Map<Language, Promise<Translation>>();

/** Downloads a language once; safe to call before i18next is initialised. */
export function fetchLanguage(language: Language): Promise<Translation> {
  let bundle = bundles.get(language);
  if (!bundle) {
    bundle = loaders[language]();
    bundles.set(language, bundle);
  }
  return bundle;
}

async function loadLanguage(language: Language): Promise<void> {
  const bundle = await fetchLanguage(language);
  if (i18next.isInitialized && !i18next.hasResourceBundle(language, 'translation')) {
    i18next.addResourceBundle(language, 'translation', bundle, true, true);
  }
}

function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function directionOf(language: string): 'rtl' | 'ltr' {
  return (RTL_LANGUAGES as readonly string[]).includes(language) ? 'rtl' : 'ltr';
}

function applyDocumentLanguage(language: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
}

export function preferredLanguage(defaultLanguage: string = DEFAULT_LANGUAGE): Language {
  const stored = local.get(StorageKey.language);
  return isLanguage(stored) ? stored : isLanguage(defaultLanguage) ? defaultLanguage : DEFAULT_LANGUAGE;
}

export async function initI18n(defaultLanguage: string = DEFAULT_LANGUAGE) {
  const language = preferredLanguage(defaultLanguage);
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      resources: { [language]: { translation: await fetchLanguage(language) } },
      lng: language,
      // Every language is complete; no fallback bundle needs downloading.
      fallbackLng: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      showSupportNotice: false,
      initImmediate: false,
    } as Parameters<typeof i18next.init>[0]);
    i18next.on('languageChanged', (next) => {
      local.set(StorageKey.language, next);
      applyDocumentLanguage(next);
    });
  }
  await loadLanguage(language);
  if (i18next.language !== language) await i18next.changeLanguage(language);
  applyDocumentLanguage(language);
  return i18next;
}

export async function changeLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  await i18next.changeLanguage(language);
}

/**
 * The text for a server code in the current language; the server's own message when the code is
 * unknown; a generic text when neither exists.
 */
export function translateCode(code: number | undefined, params: Params = {}, fallback?: string): string {
  if (code !== undefined && i18next.exists(`codes.${code}`)) {
    return i18next.t(`codes.${code}`, localizedParams(params, i18next.language));
  }
  return fallback || i18next.t('common.unknownError');
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A code's Params as the player reads them: a time the server sends (ISO) in the player's language. */
function localizedParams(params: Params, language: string): Params {
  const out: Params = {};
  for (const [name, value] of Object.entries(params)) {
    out[name] = typeof value === 'string' && ISO_TIME.test(value) ? (formatDateTime(value, language) ?? value) : value;
  }
  return out;
}

/**
 * One formatter per language: building an Intl.DateTimeFormat costs far more than using one
 * (toLocaleString builds a new one per call: 13–38 ms on a throttled phone in the lobby's first
 * render, for the drawer's last-logon line).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** A stored date and time as the player's language writes it, or null when there is none. */
export function formatDateTime(iso: string | null | undefined, language: string): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  let formatter = formatters.get(language);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    formatters.set(language, formatter);
  }
  return formatter.format(date);
}

export { i18next };
