import { Language } from '@reel/protocol/client';
import { changeLanguage, i18next } from '@/lib/i18n';
import { adminEn } from '../locales/en';
import { adminTr } from '../locales/tr';

const ADMIN_NAMESPACE = 'admin';
/** The console speaks English and Turkish (issue 27); the player's Arabic falls back to English here. */
export const ADMIN_LANGUAGES = [Language.tr, Language.en] as const;

/**
 * Adds the console's texts to the app's i18next as a namespace of their own: they ship with the
 * console's lazy chunk, never with the player's bundles. The catalogue codes stay in the default
 * namespace (`translateCode`).
 */
export async function loadAdminTexts(): Promise<void> {
  i18next.addResourceBundle(Language.en, ADMIN_NAMESPACE, adminEn, true, true);
  i18next.addResourceBundle(Language.tr, ADMIN_NAMESPACE, adminTr, true, true);
  if (!(ADMIN_LANGUAGES as readonly string[]).includes(i18next.language)) await changeLanguage(Language.en);
}
