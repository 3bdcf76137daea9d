import { useLocation } from 'react-router';
import { useAuthStore } from '@/lib/auth-store';
import { usePageTexts } from '../page-texts';
import { AuthInfoPage, type AuthInfoKind } from './auth-info-page';
import { ComingSoonPage } from './coming-soon-page';
import { PageLayoutDemo } from './page-layout-demo';
import { HelperClassesPage, IconsPage, TypographyPage } from './ui-pages';

const NO_ROLES: string[] = [];

function RolesLine() {
  const { t } = usePageTexts();
  const roles = useAuthStore((state) => state.user?.roles) ?? NO_ROLES;
  return <p className="muted">{t('yourRoles', { roles: roles.length ? roles.join(', ') : t('noRoles') })}</p>;
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
  const { t } = usePageTexts();
  return <SimplePage title="Admin" body={t('adminExample')} />;
}

export function StaffRoleExamplePage() {
  const { t } = usePageTexts();
  return <SimplePage title="Staff" body={t('staffExample')} />;
}

export function GuestRoleExamplePage() {
  const { t } = usePageTexts();
  return (
    <main className="center-screen" id="main">
      <SimplePage title="Guest" body={t('guestExample')} />
    </main>
  );
}

/** The template's auth pages, by the last path segment (login-2 is login, and so on). */
function authKind(page: string): AuthInfoKind {
  if (page.startsWith('register')) return 'register';
  if (page.startsWith('forgot-password') || page.startsWith('reset-password')) return 'password';
  if (page === 'lock') return 'lock';
  if (page === 'mail-confirm') return 'mail';
  return 'login';
}

/**
 * The template's demo pages (spec section 2 lists them without content), each with what its name
 * promises, built from the product's own parts. `/pages/profile` and `/pages/search/*` are composed
 * by the app (the profile and search features).
 */
export function TemplateDemoPage() {
  const { pathname } = useLocation();
  if (pathname.startsWith('/pages/auth/')) return <AuthInfoPage kind={authKind(pathname.slice('/pages/auth/'.length))} />;
  if (pathname.startsWith('/ui/page-layouts/')) return <PageLayoutDemo pathname={pathname} />;
  if (pathname === '/ui/icons') return <IconsPage />;
  if (pathname === '/ui/typography') return <TypographyPage />;
  if (pathname === '/ui/helper-classes') return <HelperClassesPage />;
  return <ComingSoonPage />;
}
