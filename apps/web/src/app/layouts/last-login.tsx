import { UI_VERSION } from '@reel/protocol/client';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '@/lib/auth-store';
import { formatDateTime } from '@/lib/i18n';

/** IP address, last logon time and IP, and the UI version (spec section 1). */
export function LastLoginBlock() {
  const { t, i18n } = useTranslation();
  const user = useAuthStore((state) => state.user);
  if (!user) return null;
  return (
    <dl className="last-login">
      <div>
        <dt>{t('navbar.ipAddress')}</dt>
        <dd>{user.ipAddress || '—'}</dd>
      </div>
      <div>
        <dt>{t('navbar.lastLogon')}</dt>
        <dd>{formatDateTime(user.lastLogon, i18n.language) ?? t('navbar.never')}</dd>
      </div>
      <div>
        <dt>{t('navbar.lastLogonIp')}</dt>
        <dd>{user.lastLogonIp || '—'}</dd>
      </div>
      <div>
        <dt>{t('navbar.uiVersion')}</dt>
        <dd>{UI_VERSION}</dd>
      </div>
    </dl>
  );
}
