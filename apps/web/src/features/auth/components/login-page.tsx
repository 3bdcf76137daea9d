import { Language } from '@reel/protocol/client';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icon';
import { LanguageSelect } from '@/components/language-select';
import { Logo } from '@/components/logo';
import { Switch } from '@/components/ui/switch';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { takeLogoutMessage } from '@/lib/auth';
import { local, session, StorageKey } from '@/lib/storage';
import { toast } from '@/lib/toast-store';
import { LoginForm } from './login-form';
import { FormAlert } from '@/components/ui/form-alert';

function whatsappHref(number: string): string {
  return `https://wa.me/${number.replace(/[^\d]/g, '')}`;
}

/** The operator's logo when Settings.json names one, else the product's; none when switched off. */
function LoginLogo({ show, url, label }: { show: boolean; url: string; label: string }) {
  if (!show) return null;
  if (url) return <img className="login__logo-image" src={url} alt={label} />;
  return <Logo label={label} />;
}

export function LoginPage({ banner }: { banner?: ReactNode }) {
  const { t } = useTranslation();
  const settings = useRuntimeSettings((state) => state.settings);
  const [splash, setSplash] = useState(() => local.get(StorageKey.splashScreen) === '1');
  const [logoutMessage, setLogoutMessage] = useState<string | null>(null);

  useEffect(() => {
    const message = takeLogoutMessage();
    if (message) {
      setLogoutMessage(message);
      toast.error(message);
    }
    // A message from an earlier visit must not greet the next person who opens the page.
    return () => {
      if (message) session.remove(StorageKey.logoutMessage);
    };
  }, []);

  const toggleSplash = (value: boolean) => {
    setSplash(value);
    local.set(StorageKey.splashScreen, value ? '1' : '0');
  };

  const showContact = settings.SHOW_CONTACT_ON_LOGIN && settings.WHATSAPP_NUMBER;

  return (
    <div className={`login${splash && settings.SPLASH_SCREEN ? ' login--splash' : ''}`}>
      <section className="login__hero" aria-hidden="true">
        <div className="login__reels">
          <span>7</span>
          <span>♦</span>
          <span>7</span>
        </div>
        <p className="login__tagline">{t('auth.tagline')}</p>
      </section>
      <main className="login__panel" id="main">
        <div className="login__top">
          {settings.LANG_SELECT ? (
            <LanguageSelect languages={[Language.tr, Language.en, Language.ar]} />
          ) : null}
        </div>
        <div className="login__card">
          <LoginLogo show={settings.SHOW_LOGIN_LOGO} url={settings.LOGIN_LOGO_URL} label={t('auth.logo')} />
          <h1 className="login__title">{t('auth.title')}</h1>
          <p className="muted">{t('auth.welcome')}</p>
          {banner}
          <FormAlert>{logoutMessage}</FormAlert>
          {settings.LOGIN_WITH_TOKEN ? (
            <FormAlert>{t('auth.loginWithToken')}</FormAlert>
          ) : (
            <LoginForm />
          )}
          {settings.SPLASH_SCREEN ? (
            <Switch label={t('auth.splashScreen')} checked={splash} onChange={toggleSplash} />
          ) : null}
          {showContact ? (
            <div className="login__contact">
              <a
                className="whatsapp-link"
                href={whatsappHref(settings.WHATSAPP_NUMBER)}
                target="_blank"
                rel="noreferrer"
              >
                <Icon name="whatsapp" size={28} />
                <span>{t('auth.whatsapp')}</span>
              </a>
            </div>
          ) : null}
        </div>
      </main>
    </div>
  );
}
