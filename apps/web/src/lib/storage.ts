/** Every browser-storage key the app uses, in one place so nothing collides or is forgotten on logout. */
export const StorageKey = {
  accessToken: 'jwt_access_token',
  rememberMe: 'remember_me',
  rememberedUsername: 'remembered_username',
  language: 'i18nextLng',
  lock: 'lock',
  pinCode: 'pin_code',
  guestSettings: 'guest_settings',
  logoutMessage: 'logout_message',
  redirectPath: 'redirect_path',
  walletVisible: 'wallet_visible',
  promotionUsedAt: 'promotion_used_at',
  splashScreen: 'splash_screen',
} as const;
export type StorageKey = (typeof StorageKey)[keyof typeof StorageKey];

/**
 * The operator console's keys (src/admin): its own sign-in, in session storage so it ends with the
 * tab. Apart from StorageKey so the player's bundle, which never reads them, does not carry them.
 */
export const ConsoleStorageKey = { operatorToken: 'reel_operator_token' } as const;
type ConsoleStorageKey = (typeof ConsoleStorageKey)[keyof typeof ConsoleStorageKey];

function safe<T>(action: () => T, fallback: T): T {
  try {
    return action();
  } catch {
    // Storage can throw in private mode or when the quota is full; the app keeps working without it.
    return fallback;
  }
}

export const local = {
  get: (key: StorageKey) => safe(() => window.localStorage.getItem(key), null),
  set: (key: StorageKey, value: string) => safe(() => window.localStorage.setItem(key, value), undefined),
  remove: (key: StorageKey) => safe(() => window.localStorage.removeItem(key), undefined),
};

export const session = {
  get: (key: StorageKey | ConsoleStorageKey) => safe(() => window.sessionStorage.getItem(key), null),
  set: (key: StorageKey | ConsoleStorageKey, value: string) => safe(() => window.sessionStorage.setItem(key, value), undefined),
  remove: (key: StorageKey | ConsoleStorageKey) => safe(() => window.sessionStorage.removeItem(key), undefined),
};
