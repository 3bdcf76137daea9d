import { useTranslation } from 'react-i18next';
import { NavLink, Navigate, useRoutes, type RouteObject } from 'react-router';
import { Button } from '@/components/ui/button';
import { adminApi } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { signOutOperator, useOperatorSession } from '../lib/operator-session';
import { AdminLanguageSelect } from '../components/admin-language-select';
import { FloorPage } from '../floor/floor-page';
import { PlayersPage } from '../players/players-page';
import { PlayerPage } from '../players/player-page';
import { MoneyPage } from '../money/money-page';
import { HandPaysPage } from '../hand-pays/hand-pays-page';
import { SupportPage } from '../support/support-page';
import { AuditPage } from '../audit/audit-page';

const SECTIONS = [
  { path: 'floor', label: 'nav.floor' },
  { path: 'players', label: 'nav.players' },
  { path: 'money', label: 'nav.money' },
  { path: 'hand-pays', label: 'nav.handPays' },
  { path: 'support', label: 'nav.support' },
  { path: 'audit', label: 'nav.audit' },
] as const;

/** The console's route tree under /admin. */
const ROUTES: RouteObject[] = [
  { index: true, element: <Navigate to="floor" replace /> },
  { path: 'floor', element: <FloorPage /> },
  { path: 'players', element: <PlayersPage /> },
  { path: 'players/:id', element: <PlayerPage /> },
  { path: 'money', element: <MoneyPage /> },
  { path: 'hand-pays', element: <HandPaysPage /> },
  { path: 'support', element: <SupportPage /> },
  { path: 'audit', element: <AuditPage /> },
  { path: '*', element: <Navigate to="floor" replace /> },
];

function signOut(): void {
  // The server ends the token; the console forgets it whatever the answer.
  void adminApi.post(AdminPath.logout).catch(() => undefined);
  signOutOperator();
}

/** The signed-in console: its sections, who is signed in, and the route tree under /admin. */
export function AdminShell() {
  const { t } = useTranslation('admin');
  const operator = useOperatorSession((state) => state.operator);
  return (
    <div className="admin">
      <header className="admin__bar">
        <strong className="admin__title">{t('title')}</strong>
        <nav aria-label={t('shell.nav')} className="admin__nav">
          {SECTIONS.map((section) => (
            <NavLink key={section.path} to={`/admin/${section.path}`}>
              {t(section.label)}
            </NavLink>
          ))}
        </nav>
        {operator ? (
          <span className="admin__who">{t('shell.signedInAs', { username: operator.username, role: t(`roles.${operator.role}`) })}</span>
        ) : null}
        <AdminLanguageSelect />
        <Button variant="secondary" onClick={signOut}>
          {t('shell.signOut')}
        </Button>
      </header>
      <main className="admin__main">
        {useRoutes(ROUTES)}
      </main>
    </div>
  );
}
