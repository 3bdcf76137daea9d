import { useTranslation } from 'react-i18next';
import { i18next } from '@/lib/i18n';
import { pagesAr } from '@/locales/pages/ar';
import { pagesEn } from '@/locales/pages/en';
import { pagesTr } from '@/locales/pages/tr';

/**
 * The documentation and template pages carry their texts in this chunk, as the `pages` namespace
 * in all three languages (a language switch on a page needs no download). The app's language
 * bundles, which every page loads, stay without them.
 */
const NAMESPACE = 'pages';
const TEXTS = { en: pagesEn, tr: pagesTr, ar: pagesAr };

function register() {
  for (const [language, texts] of Object.entries(TEXTS)) {
    if (!i18next.hasResourceBundle(language, NAMESPACE)) i18next.addResourceBundle(language, NAMESPACE, texts);
  }
}

if (i18next.isInitialized) register();
else i18next.on('initialized', register);

export function usePageTexts() {
  return useTranslation(NAMESPACE);
}
