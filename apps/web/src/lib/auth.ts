import {
  ApiPath,
  Code,
  Role,
  type BalanceResponse,
  type LoginRequest,
  type LoginResponse,
  type ProfileResponse,
  type TokenClaims,
  type ValidateResponse,
} from '@reel/protocol/client';
import { getSettings } from '@/config/runtime-settings';
import { api, ApiError, configureApiClient } from './api-client';
import { updateWallet, useAuthStore, type AuthUser } from './auth-store';
import { i18next, translateCode } from './i18n';
import { notificationSocket } from './notification-socket';
import { local, session, StorageKey } from './storage';
import { applyServerSettings } from './user-settings';
import { setShortcuts } from './auth-store';
import { decodeToken, isTokenExpired } from './token';

type SessionFields = Pick<
  LoginResponse,
  'token' | 'pin_code' | 'ip_address' | 'versions' | 'last_logon' | 'last_logon_ip'
>;

export function getStoredToken(): string | null {
  return local.get(StorageKey.accessToken) ?? session.get(StorageKey.accessToken);
}

/** The token a link may carry in the query string (`access_token`, else `token`). */
function queryToken(params: URLSearchParams): string | null {
  return params.get('access_token') ?? params.get('token');
}

/** Whether start-up will sign in with a token (a stored one or one in the address bar). */
export function hasStartupToken(): boolean {
  return getStoredToken() !== null || Boolean(queryToken(new URLSearchParams(window.location.search)));
}

/** Remember me keeps the token across browser restarts; otherwise it lives for the tab only. */
function storeToken(token: string, remember = local.get(StorageKey.rememberMe) !== 'false'): void {
  if (remember) {
    local.set(StorageKey.accessToken, token);
    session.remove(StorageKey.accessToken);
  } else {
    session.set(StorageKey.accessToken, token);
    local.remove(StorageKey.accessToken);
  }
}

function clearStoredSession(): void {
  local.remove(StorageKey.accessToken);
  session.remove(StorageKey.accessToken);
  local.remove(StorageKey.lock);
  local.remove(StorageKey.pinCode);
}

function userFromToken(claims: TokenClaims, fields: Omit<SessionFields, 'token'>): AuthUser {
  const roles = Array.isArray(claims.role) ? [...claims.role] : claims.role ? [String(claims.role)] : [];
  // A signed-in player always carries the user role, whatever else the token grants.
  if (!roles.includes(Role.User)) roles.push(Role.User);
  const name = claims.name ?? '';
  const lastname = claims.lastname ?? '';
  return {
    id: Number(claims.id ?? claims.sub),
    name,
    lastname,
    email: claims.email ?? '',
    username: claims.username ?? '',
    displayName: `${name} ${lastname}`.trim() || claims.username || '',
    photoURL: typeof claims.photoURL === 'string' && claims.photoURL ? claims.photoURL : null,
    group: claims.group ?? '',
    permissions: Array.isArray(claims.permissions) ? claims.permissions : [],
    type: claims.type ?? '',
    roles,
    ipAddress: fields.ip_address ?? '',
    versions: fields.versions ?? '',
    lastLogon: fields.last_logon ?? null,
    lastLogonIp: fields.last_logon_ip ?? null,
    hasPin: Boolean(fields.pin_code),
    shortcuts: [],
  };
}

async function refreshWallet(): Promise<void> {
  try {
    const wallet = await api.get<BalanceResponse>(ApiPath.balance);
    updateWallet(wallet);
  } catch {
    // The toolbar shows no balance until the next push; sign-in itself succeeded.
  }
}

/** Theme, layout and shortcuts follow the player from device to device. */
async function loadPreferences(): Promise<void> {
  try {
    const profile = await api.get<ProfileResponse>(ApiPath.profile);
    applyServerSettings(profile.settings);
    setShortcuts(Array.isArray(profile.shortcuts) ? profile.shortcuts : []);
  } catch {
    // Defaults stay in place; the profile page reports its own errors.
  }
}

function establishSession(fields: SessionFields): AuthUser {
  const claims = decodeToken(fields.token);
  if (!claims) throw new ApiError(Code.InvalidAccessToken, 'Invalid access_token', 401);
  const user = userFromToken(claims, fields);
  storeToken(fields.token);
  session.remove(StorageKey.logoutMessage);
  local.set(StorageKey.pinCode, user.hasPin ? '1' : '0');
  useAuthStore.setState({ status: 'authenticated', user, token: fields.token });
  // The login event: the notification channel opens with the id from the token.
  notificationSocket.connect(user.id, fields.token);
  void refreshWallet();
  void loadPreferences();
  return user;
}

export async function signInWithPassword(request: LoginRequest & { remember: boolean }): Promise<AuthUser> {
  const { remember, ...body } = request;
  local.set(StorageKey.rememberMe, remember ? 'true' : 'false');
  if (remember) local.set(StorageKey.rememberedUsername, body.username);
  else local.remove(StorageKey.rememberedUsername);
  const response = await api.post<LoginResponse>(
    ApiPath.login,
    { ...body, site_id: body.site_id ?? getSettings().SITE_ID ?? 0 },
    { allowUnauthorized: true, token: null },
  );
  return establishSession(response);
}

/** Signs in with a stored (or query-string) token: the server answers a fresh one. */
async function signInWithToken(token: string): Promise<AuthUser> {
  const response = await api.get<ValidateResponse>(ApiPath.validate, { token, allowUnauthorized: true });
  return establishSession(response);
}

let loggingOut = false;

/** Posts the logout, forgets everything about the session and reloads into /login. */
export async function logout(options: { reload?: boolean } = {}): Promise<void> {
  if (loggingOut) return;
  loggingOut = true;
  const token = useAuthStore.getState().token ?? getStoredToken();
  notificationSocket.disconnect();
  if (token) {
    try {
      await api.post(ApiPath.logout, {}, { token, allowUnauthorized: true });
    } catch {
      // Logging out locally must work even when the server cannot be reached.
    }
  }
  clearStoredSession();
  updateWallet(null);
  useAuthStore.setState({ status: 'guest', user: null, token: null });
  loggingOut = false;
  if (options.reload !== false) window.location.replace('/login');
}

/** Logout with a message that survives the reload and is shown on the login page. */
export function autoLogout(message?: string): Promise<void> {
  if (message) session.set(StorageKey.logoutMessage, message);
  return logout();
}

/** Kept until the next successful sign-in, so a re-rendered login page still explains the logout. */
export function takeLogoutMessage(): string | null {
  return session.get(StorageKey.logoutMessage);
}

/** A token in the page's query string becomes the stored token and leaves the address bar. */
function adoptTokenFromQuery(): string | null {
  const url = new URL(window.location.href);
  const token = queryToken(url.searchParams);
  if (!token) return null;
  storeToken(token, true);
  url.searchParams.delete('access_token');
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  return token;
}

function messageForError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetwork) return i18next.t('common.networkError');
    return translateCode(error.code, error.params, error.message);
  }
  return i18next.t('common.unknownError');
}

let prepared = false;

/**
 * The synchronous half of start-up: the API client learns where the token is, and a token in the
 * address bar becomes the stored one. Done before anything else is asked, so requests a page
 * starts while the token is still being checked (route preloads) carry it.
 */
export function prepareAuth(): void {
  if (prepared) return;
  prepared = true;
  configureApiClient({
    getToken: () => useAuthStore.getState().token ?? getStoredToken(),
    onUnauthorized: (error) => {
      if (useAuthStore.getState().status !== 'authenticated') return;
      // The server tells an expired token (40103) and a forged one (10) apart; anything else is 40102.
      const code =
        error.code === Code.AccessTokenExpired || error.code === Code.SignatureNotVerified
          ? error.code
          : Code.InvalidAccessToken;
      void autoLogout(translateCode(code));
    },
  });
  notificationSocket.on(
    'logout',
    ({ code, Params }) => void autoLogout(translateCode(code || Code.InvalidAccessToken, Params)),
  );
  notificationSocket.on('balance', (data) => updateWallet(data));
  // Another tab signed in again and swapped the shared token (the old one stops working soon):
  // carry on with the new one instead of being signed out.
  window.addEventListener('storage', (event) => {
    if (event.key !== StorageKey.accessToken || !event.newValue) return;
    if (useAuthStore.getState().status !== 'authenticated') return;
    useAuthStore.setState({ token: event.newValue });
    const claims = decodeToken(event.newValue);
    if (claims) notificationSocket.connect(claims.id, event.newValue);
  });

  adoptTokenFromQuery();
}

/**
 * Start-up check (spec section 4): automatic login with the stored token, automatic logout with a
 * message, or guest when there is no token.
 */
export async function bootstrapAuth(): Promise<void> {
  prepareAuth();
  const token = getStoredToken();
  if (!token) {
    useAuthStore.setState({ status: 'guest' });
    return;
  }
  const claims = decodeToken(token);
  if (isTokenExpired(claims)) {
    clearStoredSession();
    // The message must be stored before the state change renders the login page that reads it.
    showLogoutMessage(translateCode(claims ? Code.AccessTokenExpired : Code.InvalidAccessToken));
    useAuthStore.setState({ status: 'guest' });
    return;
  }
  try {
    await signInWithToken(token);
  } catch (error) {
    const networkFailure = error instanceof ApiError && error.isNetwork;
    // Keep the token on a network failure: the next reload can still sign in with it.
    if (!networkFailure) clearStoredSession();
    showLogoutMessage(messageForError(error));
    useAuthStore.setState({ status: 'guest', user: null, token: null });
  }
}

/** The login page shows it (inline and as a toast) once it mounts; the splash hides anything sooner. */
function showLogoutMessage(message: string): void {
  session.set(StorageKey.logoutMessage, message);
}

export { messageForError };
