import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useAuthStore } from '@/lib/auth-store';

const NO_ROLES: string[] = [];

function RolesLine() {
  const { t } = useTranslation();
  const roles = useAuthStore((state) => state.user?.roles) ?? NO_ROLES;
  return <p className="muted">{t('pages.yourRoles', { roles: roles.length ? roles.join(', ') : t('pages.noRoles') })}</p>;
}

function SimplePage({ title, body }: { title: string; body: string }) {
  return (
    <div className="page">
      <header className="page__header">
        <h1>{title}</h1>
      </header>
      <div className="card">
        <p>{body}</p>
        <RolesLine />
      </div>
    </div>
  );
}

export function AdminRoleExamplePage() {
  const { t } = useTranslation();
  return <SimplePage title="Admin" body={t('pages.adminExample')} />;
}

export function StaffRoleExamplePage() {
  const { t } = useTranslation();
  return <SimplePage title="Staff" body={t('pages.staffExample')} />;
}

export function GuestRoleExamplePage() {
  const { t } = useTranslation();
  return (
    <main className="center-screen" id="main">
      <SimplePage title="Guest" body={t('pages.guestExample')} />
    </main>
  );
}

export function DocumentationPage() {
  const { t } = useTranslation();
  return <SimplePage title={t('pages.documentation')} body={t('pages.documentationBody')} />;
}

/** One placeholder for the template's demo pages, which the spec only lists. */
export function TemplateDemoPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('pages.templateTitle')}</h1>
        <p className="muted">
          <code>{pathname}</code>
        </p>
      </header>
      <div className="card">
        <p>{t('pages.templateBody')}</p>
      </div>
    </div>
  );
}
