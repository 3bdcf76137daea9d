import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { Spinner } from '@/components/ui/spinner';
import { UserAvatar } from '@/components/user-avatar';
import { useRuntimeSettings } from '@/config/runtime-settings';
import { messageForError } from '@/lib/auth';
import { useAuthStore } from '@/lib/auth-store';
import { formatDateTime } from '@/lib/i18n';
import { useProfile } from '../api/get-profile';
import { ChangePasswordForm } from './change-password-form';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="details__row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function ProfilePage() {
  const { t, i18n } = useTranslation();
  const settings = useRuntimeSettings((state) => state.settings);
  const profile = useProfile();
  const data = profile.data;
  // The page shows the signed-in player; the avatar comes with the sign-in (the token's photoURL).
  const photoURL = useAuthStore((state) => state.user?.photoURL);
  // A reload after an error shows the spinner again, not the old error.
  const loading = profile.isFetching;
  const reload = () => void profile.refetch();
  const never = t('profile.never');

  return (
    <div className="page profile">
      <header className="page__header profile__header">
        <UserAvatar name={data?.name ?? ''} photoURL={photoURL} size="xl" />
        <div>
          <h1>{data ? `${data.name} ${data.lastname}` : t('profile.title')}</h1>
          {data ? <p className="muted">@{data.username}</p> : null}
        </div>
      </header>
      {loading && !data ? <Spinner label={t('common.loading')} /> : null}
      {profile.isError && !loading ? (
        <div className="card" role="alert">
          <p>{t('profile.loadError')}</p>
          <p className="muted small">{messageForError(profile.error)}</p>
          <Button variant="secondary" onClick={reload}>
            {t('common.retry')}
          </Button>
        </div>
      ) : null}
      {data ? (
        <div className="profile__grid">
          {data.password_expired ? (
            <div className="notice notice--warning profile__wide" role="alert">
              <Icon name="warning" size={20} />
              {t('profile.passwordExpired')}
            </div>
          ) : null}
          <section className="card" aria-labelledby="account-title">
            <h2 id="account-title" className="card__title">
              {t('profile.account')}
            </h2>
            <dl className="details">
              <Row label={t('profile.name')}>{data.name}</Row>
              <Row label={t('profile.lastname')}>{data.lastname}</Row>
              <Row label={t('profile.username')}>{data.username}</Row>
              <Row label={t('profile.email')}>{data.email || '—'}</Row>
              <Row label={t('profile.group')}>{data.group || '—'}</Row>
            </dl>
          </section>
          <section className="card" aria-labelledby="auth-title">
            <h2 id="auth-title" className="card__title">
              {t('profile.authentication')}
            </h2>
            <dl className="details">
              <Row label={t('profile.currentIp')}>{data.ip_address || '—'}</Row>
              <Row label={t('profile.lastLoggedInIp')}>{data.last_logon_ip || '—'}</Row>
              <Row label={t('profile.lastLoggedInTime')}>
                {formatDateTime(data.last_logon, i18n.language) ?? never}
              </Row>
              <Row label={t('profile.lastPasswordChange')}>
                {formatDateTime(data.password_changed_at, i18n.language) ?? never}
              </Row>
              <Row label={t('profile.pin')}>
                {data.pin_code ? t('profile.pinSet') : t('profile.pinNotSet')}
              </Row>
            </dl>
          </section>
          <section className="card" aria-labelledby="change-password-title">
            <h2 id="change-password-title" className="card__title">
              {t('profile.changePassword')}
            </h2>
            <ChangePasswordForm onChanged={reload} />
          </section>
          <section className="card" aria-labelledby="protection-title">
            <h2 id="protection-title" className="card__title">
              {t('profile.protection')}
            </h2>
            <p className="muted">{t('profile.protectionIntro')}</p>
            <Link className="btn btn--secondary" to={paths.protection}>
              {t('profile.openProtection')}
            </Link>
          </section>
          <section className="card" aria-labelledby="support-title">
            <h2 id="support-title" className="card__title">
              {t('profile.support')}
            </h2>
            {settings.SUPPORT_PHONE || settings.WHATSAPP_NUMBER ? (
              <dl className="details">
                {settings.SUPPORT_PHONE ? (
                  <Row label={t('profile.supportLine')}>
                    <a href={`tel:${settings.SUPPORT_PHONE.replace(/[^\d+]/g, '')}`} dir="ltr">
                      {settings.SUPPORT_PHONE}
                    </a>
                  </Row>
                ) : null}
                {settings.WHATSAPP_NUMBER ? (
                  <Row label={t('profile.whatsappLine')}>
                    <a
                      href={`https://wa.me/${settings.WHATSAPP_NUMBER.replace(/[^\d]/g, '')}`}
                      target="_blank"
                      rel="noreferrer"
                      dir="ltr"
                    >
                      {settings.WHATSAPP_NUMBER}
                    </a>
                  </Row>
                ) : null}
              </dl>
            ) : (
              <p className="muted">{t('profile.noSupport')}</p>
            )}
          </section>
        </div>
      ) : null}
    </div>
  );
}
