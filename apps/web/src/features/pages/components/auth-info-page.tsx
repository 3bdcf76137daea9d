import { Link } from 'react-router';
import { Icon, type IconName } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { useAuthStore } from '@/lib/auth-store';
import { usePageTexts } from '../page-texts';

/**
 * The template's auth pages (`/pages/auth/*`) say how this product does each thing: one sign-in
 * page, accounts opened by the operator, password changes on the profile and resets through
 * support, the PIN lock, and no e-mail (docs/spec-decisions.md).
 */
export type AuthInfoKind = 'login' | 'register' | 'password' | 'lock' | 'mail';

const ICONS: Record<AuthInfoKind, IconName> = { login: 'person', register: 'person', password: 'lock', lock: 'lock', mail: 'info' };

function Details({ kind }: { kind: AuthInfoKind }) {
  const { t } = usePageTexts();
  const settings = useRuntimeSettings((state) => state.settings);
  const hasPin = useAuthStore((state) => state.user?.hasPin ?? false);
  switch (kind) {
    case 'login':
      return (
        <Link className="btn btn--secondary" to={paths.logout}>
          <Icon name="logout" size={20} />
          <span>{t('auth.login.action')}</span>
        </Link>
      );
    case 'register':
      return settings.SUPPORT_PHONE ? <p>{t('auth.register.support', { phone: settings.SUPPORT_PHONE })}</p> : null;
    case 'password':
      return (
        <div className="auth-info__actions">
          <Link className="btn btn--primary" to={paths.profile}>
            {t('auth.password.profile')}
          </Link>
          <a className="btn btn--ghost" href="/info/password-reset.html" target="_blank" rel="noreferrer">
            {t('auth.password.procedure')}
            <span className="visually-hidden"> {t('search.opensInNewTab')}</span>
          </a>
        </div>
      );
    case 'lock':
      return settings.PIN_CHECK ? <p className="muted">{t(hasPin ? 'auth.lock.pin' : 'auth.lock.noPin')}</p> : null;
    case 'mail':
      return null;
  }
}

export function AuthInfoPage({ kind }: { kind: AuthInfoKind }) {
  const { t } = usePageTexts();
  const name = useAuthStore((state) => state.user?.displayName ?? '');
  const pinCheck = useRuntimeSettings((state) => state.settings.PIN_CHECK);
  const body = kind === 'lock' ? t(pinCheck ? 'auth.lock.on' : 'auth.lock.off') : t(`auth.${kind}.body`, { name });
  return (
    <div className="page auth-info">
      <div className="card auth-info__card">
        <Icon name={ICONS[kind]} size={40} className="text-accent" />
        <h1>{t(`auth.${kind}.title`)}</h1>
        <p>{body}</p>
        <Details kind={kind} />
      </div>
    </div>
  );
}
