import { UI_VERSION } from '@reel/protocol/client';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useAuthStore } from '@/lib/auth-store';

/**
 * layout3's admin bar (spec section 2), shown when the layout config enables it: a thin strip above
 * the toolbar with who is signed in and with which role, the UI and server versions, and the
 * documentation link (docs/spec-decisions.md).
 */
export function AdminBar() {
  const { t } = useTranslation();
  const user = useAuthStore((state) => state.user);
  return (
    <aside className="admin-bar" aria-label={t('adminBar.label')} data-testid="admin-bar">
      {user ? <span>{t('adminBar.signedInAs', { username: user.username, role: user.roles.join(', ') })}</span> : null}
      <span>UI {UI_VERSION}</span>
      {user?.versions ? <span>{t('adminBar.server', { versions: user.versions })}</span> : null}
      <Link to={paths.documentation}>{t('adminBar.documentation')}</Link>
    </aside>
  );
}
