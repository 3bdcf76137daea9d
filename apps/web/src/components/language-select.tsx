import type { Language } from '@reel/protocol/client';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '@/lib/i18n';

interface LanguageSelectProps {
  languages: readonly Language[];
  className?: string;
}

/** Segmented TR/EN(/AR) switch; the choice is stored by i18n and flips document.dir for Arabic. */
export function LanguageSelect({ languages, className }: LanguageSelectProps) {
  const { t, i18n } = useTranslation();
  return (
    <div className={className ? `lang-select ${className}` : 'lang-select'} role="group" aria-label={t('languages.label')}>
      {languages.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className="lang-select__option"
          aria-pressed={i18n.language === language}
          aria-label={t(`languages.${language}`)}
          title={t(`languages.${language}`)}
          onClick={() => void changeLanguage(language)}
        >
          {language.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
