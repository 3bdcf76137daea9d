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
  /** The operator console's own sign-in (session storage: it ends with the tab), apart from the player's. */
  operatorToken: 'reel_operator_token',
} as const;
export type StorageKey = (typeof StorageKey)[keyof typeof StorageKey];

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
  get: (key: StorageKey) => safe(() => window.sessionStorage.getItem(key), null),
  set: (key: StorageKey, value: string) => safe(() => window.sessionStorage.setItem(key, value), undefined),
  remove: (key: StorageKey) => safe(() => window.sessionStorage.removeItem(key), undefined),
};
