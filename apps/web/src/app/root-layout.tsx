import { Suspense, useDeferredValue, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { Splash } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { authRoles, hasPermission, redirectAfterDenied } from '@/lib/auth-rules';
import { setRedirectPath, useAuthStore } from '@/lib/auth-store';
import { preloadableLazy } from '@/lib/preloadable-lazy';
import { LiveChatLoader } from '@/features/live-chat';
import type { RouteHandle } from './route-handle';

const loadChrome = () => import('./signed-in-chrome');
const appLayout = preloadableLazy(loadChrome, (chrome) => chrome.AppLayout);
const signedInOverlays = preloadableLazy(loadChrome, (chrome) => chrome.SignedInOverlays);
const AppLayout = appLayout.Component;
const SignedInOverlays = signedInOverlays.Component;

const NO_ROLES: string[] = [];

/** The deepest route that says something wins, as in nested route configs of the template. */
function resolveHandle(handles: readonly (RouteHandle | undefined)[]): RouteHandle {
  const result: RouteHandle = { chrome: 'full' };
  for (const handle of handles) {
    if (!handle) continue;
    if ('auth' in handle) result.auth = handle.auth;
    if (handle.chrome) result.chrome = handle.chrome;
    if (handle.background) result.background = handle.background;
    if (handle.preloadData) result.preloadData = handle.preloadData;
  }
  return result;
}

/**
 * Starts downloading what a signed-in page renders around its content (signed-in-chrome.ts) while
 * the stored token is still being checked, instead of after the check.
 */
export function preloadSignedInChunks(handles: readonly (RouteHandle | undefined)[]): void {
  const handle = resolveHandle(handles);
  if (handle.auth === authRoles.onlyGuest) return;
  // One chunk holds both; each lazy component learns that it is in.
  void appLayout.preload().catch(() => undefined);
  void signedInOverlays.preload().catch(() => undefined);
}

/**
 * Starts a signed-in page's first data request (its handle's preloadData) once the settings are
 * in and the API client carries the start-up token: the request then runs beside the token check
 * instead of after it and after the page's first render.
 */
export function preloadSignedInData(handles: readonly (RouteHandle | undefined)[]): void {
  const handle = resolveHandle(handles);
  if (handle.auth === authRoles.onlyGuest) return;
  void handle.preloadData?.().catch(() => undefined);
}

function Denied({ signedIn }: { signedIn: boolean }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { t } = useTranslation();
  useEffect(() => {
    if (signedIn) {
      const target = redirectAfterDenied(useAuthStore.getState().redirectPath);
      setRedirectPath(null);
      navigate(target, { replace: true });
    } else {
      setRedirectPath(location.pathname + location.search);
      navigate(paths.login, { replace: true });
    }
  }, [signedIn, navigate, location.pathname, location.search]);
  return <Splash label={t('common.loading')} />;
}

export function RootLayout() {
  const { t } = useTranslation();
  // The signed-in page is the app's biggest render. Deferred, React builds it in short slices that
  // yield to the browser instead of one long task the moment /validate answers (80+ ms, four times
  // that on a throttled phone); until then the splash stays.
  const { status, user } = useDeferredValue(useAuthStore(useShallow((state) => ({ status: state.status, user: state.user }))));
  const roles = user?.roles ?? NO_ROLES;
  const matches = useMatches();
  const handle = resolveHandle(matches.map((match) => match.handle as RouteHandle | undefined));

  useEffect(() => {
    if (handle.background) document.body.dataset.background = handle.background;
    else delete document.body.dataset.background;
  }, [handle.background]);

  if (status === 'checking') return <Splash label={t('common.loading')} />;
  if (!hasPermission(handle.auth, roles)) return <Denied signedIn={roles.length > 0} />;

  const signedIn = status === 'authenticated';
  return (
    <>
      <Suspense fallback={<Splash label={t('common.loading')} />}>
        {handle.chrome === 'none' ? (
          <Outlet />
        ) : (
          <AppLayout>
            <Outlet />
          </AppLayout>
        )}
        {signedIn ? <SignedInOverlays /> : null}
      </Suspense>
      <LiveChatLoader />
    </>
  );
}
