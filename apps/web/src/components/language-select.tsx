import type { Language } from '@reel/protocol/client';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_OPTIONS } from '@/config/languages';
import { changeLanguage } from '@/lib/i18n';
import { Flag } from './flag';

interface LanguageSelectProps {
  languages: readonly Language[];
  className?: string;
}

/** Segmented TR/EN(/AR) switch, each option with its flag; the choice is stored by i18n and flips document.dir for Arabic. */
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
          <Flag id={LANGUAGE_OPTIONS[language].flag} />
          <span>{language.toUpperCase()}</span>
        </button>
      ))}
    </div>
  );
}
