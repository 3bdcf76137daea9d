import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths, templateDemoPaths } from '@/config/paths';
import { authRoles } from '@/lib/auth-rules';
import { RootLayout } from './root-layout';
import { RouteError } from './routes/route-error';
import { RouteFallback } from './routes/route-fallback';
import type { RouteHandle } from './route-handle';

const handle = (value: RouteHandle) => value;

/** Builds the route table of spec section 2; exported as a function so tests can mount it in memory. */
export function createRoutes(): RouteObject[] {
  const user = authRoles.user;
  return [
    {
      element: <RootLayout />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <RouteFallback />,
      children: [
        { index: true, element: <Navigate to={paths.lobby} replace /> },
        {
          path: 'lobby',
          handle: handle({ auth: user, background: 'lobby', preloadData: () => import('./routes/lobby').then((m) => m.prefetchLobby()) }),
          children: [
            { index: true, lazy: () => import('./routes/lobby').then((m) => ({ Component: m.LobbyRoute })) },
            { path: ':id/:name', lazy: () => import('./routes/lobby').then((m) => ({ Component: m.LobbyGroupRoute })) },
          ],
        },
        { path: 'game', element: <Navigate to={paths.lobby} replace /> },
        {
          path: 'game/:gameId/:name',
          handle: handle({ auth: user, chrome: 'none', background: 'game' }),
          lazy: () => import('./routes/game').then((m) => ({ Component: m.GameRoute })),
        },
        {
          path: 'watch/:id/:name',
          handle: handle({ auth: user, background: 'game' }),
          lazy: () => import('./routes/watch').then((m) => ({ Component: m.WatchRoute })),
        },
        {
          path: 'profile',
          handle: handle({ auth: user }),
          children: [
            { index: true, lazy: () => import('./routes/profile').then((m) => ({ Component: m.ProfileRoute })) },
            { path: 'protection', lazy: () => import('./routes/profile').then((m) => ({ Component: m.ProtectionRoute })) },
            { path: ':profileId', lazy: () => import('./routes/profile').then((m) => ({ Component: m.ProfileRoute })) },
          ],
        },
        {
          path: 'slot-sessions',
          handle: handle({ auth: user }),
          lazy: () => import('./routes/history').then((m) => ({ Component: m.SlotSessionsRoute })),
        },
        {
          path: 'transactions',
          handle: handle({ auth: user }),
          lazy: () => import('./routes/history').then((m) => ({ Component: m.TransactionsRoute })),
        },
        {
          path: 'login',
          handle: handle({ auth: authRoles.onlyGuest, chrome: 'none' }),
          lazy: () => import('./routes/login').then((m) => ({ Component: m.LoginRoute })),
        },
        {
          path: 'logout',
          handle: handle({ auth: null, chrome: 'none' }),
          lazy: () => import('./routes/login').then((m) => ({ Component: m.LogoutRoute })),
        },
        {
          path: 'callback',
          handle: handle({ auth: authRoles.onlyGuest, chrome: 'none' }),
          lazy: () => import('./routes/login').then((m) => ({ Component: m.CallbackRoute })),
        },
        {
          path: 'auth/admin-role-example',
          handle: handle({ auth: authRoles.admin }),
          lazy: () => import('./routes/pages').then((m) => ({ Component: m.AdminRoleExampleRoute })),
        },
        {
          path: 'auth/staff-role-example',
          handle: handle({ auth: authRoles.staff }),
          lazy: () => import('./routes/pages').then((m) => ({ Component: m.StaffRoleExampleRoute })),
        },
        {
          path: 'auth/guest-role-example',
          handle: handle({ auth: authRoles.onlyGuest, chrome: 'none' }),
          lazy: () => import('./routes/pages').then((m) => ({ Component: m.GuestRoleExampleRoute })),
        },
        {
          path: 'documentation',
          handle: handle({ auth: user }),
          lazy: () => import('./routes/pages').then((m) => ({ Component: m.DocumentationRoute })),
        },
        ...templateDemoPaths.map<RouteObject>((path) => ({
          path: path.slice(1),
          handle: handle({ auth: user }),
          // The template's profile page is the player's real one.
          lazy:
            path === '/pages/profile'
              ? () => import('./routes/profile').then((m) => ({ Component: m.ProfileRoute }))
              : () => import('./routes/pages').then((m) => ({ Component: m.TemplateDemoRoute })),
        })),
        {
          // The footer's Paytables dialog embeds it; open to anyone, like the other information pages.
          path: 'paytables',
          handle: handle({ auth: null, chrome: 'none' }),
          lazy: () => import('./routes/paytables').then((m) => ({ Component: m.PaytablesRoute })),
        },
        {
          path: 'pages/errors/error-404',
          handle: handle({ auth: null, chrome: 'none' }),
          lazy: () => import('./routes/pages').then((m) => ({ Component: m.NotFoundRoute })),
        },
        {
          path: 'pages/errors/error-500',
          handle: handle({ auth: null, chrome: 'none' }),
          lazy: () => import('./routes/pages').then((m) => ({ Component: m.ServerErrorRoute })),
        },
        { path: '*', element: <Navigate to={paths.error404} replace /> },
      ],
    },
  ];
}

export const router = createBrowserRouter(createRoutes());
