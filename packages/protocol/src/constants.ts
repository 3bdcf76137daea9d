/** Business constants, feature flags and named values of spec sections 3 and 9. */

export const UI_VERSION = 'v2.4.5';
export const CURRENCY = 'TRY';
export const CENTS_PER_UNIT = 100;
export const NAVIGATION_LEVEL = 145;
export const SEARCH_SUGGESTIONS_MAX = 10;
export const IDLE_TIMEOUT_MS = 60_000;
/** The spec gives 30000 ms while its message says 5 minutes; the number is the contract. */
export const PROMOTION_COOLDOWN_MS = 30_000;
export const SESSION_WARNING_AUTOCLOSE_MS = 10_000;
export const SESSION_WARNING_FIRST_COUNT = 10;
export const LIVE_CHAT_START_DELAY_MS = 700;
export const LIVE_CHAT_RETRY_MS = 5_000;
export const HOVER_MENU_DELAY_MS = 150;
export const CHAT_TIME_FORMAT = 'MMMM Do YYYY, h:mm:ss a';
/** The sign-in form's rule for username and password (spec section 5: 'Min character length is 4'). */
export const LOGIN_MIN_LENGTH = 4;
/**
 * The change-password rule: a new password chosen on the profile page needs at least this many
 * characters (server answers 40101 below it; the web form checks the same number before sending).
 */
export const NEW_PASSWORD_MIN_LENGTH = 8;
export const DEFAULT_THEME = 'dark1';

export const Layout = {
  sidebarWidth: 240,
  headerHeight: 120,
  navbarWidth: 280,
  navbarFoldedWidth: 64,
  chatPanelWidth: 360,
  quickPanelWidth: 280,
  boxedWidths: [1280, 1120],
} as const;

/** Amount action codes (spec section 3). */
export const ActionCode = {
  Deposit: 1,
  Withdraw: 2,
  CashIn: 3,
  CashOut: 4,
  HandPay: 5,
  Jackpot: 6,
} as const;
export type ActionCode = (typeof ActionCode)[keyof typeof ActionCode];
export const actionCodeName: Record<ActionCode, string> = {
  1: 'Deposit',
  2: 'Withdraw',
  3: 'Cash In',
  4: 'Cash Out',
  5: 'Hand Pay',
  6: 'JACKPOT',
};

/** Promotions move money too but carry no spec action code. */
export const PromotionKind = { Discount: 'discount', Bonus: 'bonus' } as const;
export type PromotionKind = (typeof PromotionKind)[keyof typeof PromotionKind];

/** Transaction and log type names (spec section 3). */
export const LogType = {
  LoginFail: 'login fail',
  LoginNotAllowed: 'login not allowed',
  LoginSuccess: 'login success',
  LoginCheckFail: 'login check fail',
  LoginCheckSuccess: 'login check success',
  LogoutSuccess: 'logout success',
  ChangedPassword: 'changed password',
  TemporaryBlocked: 'temporary blocked',
  KickedByPlayer: 'kicked by player',
} as const;
export type LogType = (typeof LogType)[keyof typeof LogType];

/** Machine status as the lobby shows it (spec section 4). */
export const MachineStatus = {
  Playing: 'playing',
  Available: 'available',
  Waiting: 'waiting',
  Reserved: 'reserved',
  NotAvailable: 'not_available',
} as const;
export type MachineStatus = (typeof MachineStatus)[keyof typeof MachineStatus];

/**
 * The cabinet's own state, reported by the machine agent: the one list of them. The agent
 * channel's schema (AgentMachineState), the game channel's views and every subset below derive
 * from it.
 */
export const CabinetState = {
  Idle: 'idle',
  InGame: 'in_game',
  InBonus: 'in_bonus',
  CashingOut: 'cashing_out',
  Error: 'error',
  Malfunction: 'malfunction',
  Offline: 'offline',
} as const;
export type CabinetState = (typeof CabinetState)[keyof typeof CabinetState];
export const CABINET_STATES: readonly CabinetState[] = Object.values(CabinetState);

/** A player at the machine can play (join, spin, bet); in a bonus the free spins run by themselves. */
export const PLAYABLE_CABINET_STATES = [
  CabinetState.Idle,
  CabinetState.InGame,
  CabinetState.InBonus,
] as const;
/** A game or a cash out is under way: the meters are moving, so they are not compared now. */
export const BUSY_CABINET_STATES = [
  CabinetState.InGame,
  CabinetState.InBonus,
  CabinetState.CashingOut,
] as const;
/** The cabinet stopped itself (an operator or test sets them with `set_fault`). */
export const FAULT_CABINET_STATES = [CabinetState.Error, CabinetState.Malfunction] as const;
export type CabinetFault = (typeof FAULT_CABINET_STATES)[number];
/** The lobby shows the machine Not Available. */
export const UNAVAILABLE_CABINET_STATES = [CabinetState.Offline, ...FAULT_CABINET_STATES] as const;

const isIn = (states: readonly string[]) => (state: string) => states.includes(state);
export const isPlayableCabinetState = isIn(PLAYABLE_CABINET_STATES);
export const isBusyCabinetState = isIn(BUSY_CABINET_STATES);
export const isFaultCabinetState = isIn(FAULT_CABINET_STATES);
export const isUnavailableCabinetState = isIn(UNAVAILABLE_CABINET_STATES);

/** Wallet parts, shown in the toolbar with the spec's ledger colours. */
export const WalletPart = { Cash: 'cash', Credit: 'credit', Bonus: 'bonus', Discount: 'discount' } as const;
export type WalletPart = (typeof WalletPart)[keyof typeof WalletPart];
/** Order in which a spend draws from the parts: promotional money first, cash last. */
export const WALLET_SPEND_ORDER: readonly WalletPart[] = ['discount', 'bonus', 'credit', 'cash'];

export const Role = { Admin: 'admin', Staff: 'staff', User: 'user', Guest: 'guest' } as const;
export type Role = (typeof Role)[keyof typeof Role];

export const Language = { tr: 'tr', en: 'en', ar: 'ar' } as const;
export type Language = (typeof Language)[keyof typeof Language];
export const DEFAULT_LANGUAGE: Language = 'tr';
export const RTL_LANGUAGES: readonly Language[] = ['ar'];

/** Chat statuses (spec section 2), in the order a status menu lists them. */
export const CONTACT_STATUSES = ['online', 'do-not-disturb', 'away', 'offline'] as const;

export const VideoType = { Screen: 'screen', Camera: 'camera' } as const;
export type VideoType = (typeof VideoType)[keyof typeof VideoType];

/** Hot coin cash-in amounts in cents; the spec lists prices 500, 5000, '10.000', '50.000', '100.000'. */
export const HOT_COINS = [
  { amountCents: 500, color: 'blue' },
  { amountCents: 5_000, color: 'green' },
  { amountCents: 10_000, color: 'purple' },
  { amountCents: 50_000, color: 'yellow' },
  { amountCents: 100_000, color: 'red' },
] as const;

/**
 * Runtime settings (Settings.json) with the spec's defaults. Amount settings are in cents.
 * `Settings.json` overrides these key by key.
 */
export const DEFAULT_SETTINGS = {
  API_URL: '/api/',
  /**
   * The discount's balance ceiling in whole currency units (100 = ₺100.00), unlike the other amount
   * settings, which are cents: see discountMinBalanceCents and docs/spec-decisions.md.
   */
  DISCOUNT_MIN: 100,
  HOT_FLAG_LIMIT: 20_000,
  /** A win at or above this (cents) is a hand pay: the machine locks until staff approve it. */
  HAND_PAY_LIMIT: 1_000_000,
  /** A hand pay at or above this (cents) needs a second, different staff member's approval. */
  HAND_PAY_SECOND_SIGNER: 5_000_000,
  MAX_ALL_IN_LIMIT: 2_500_000,
  UPDATE_LOBBY: 10,
  FPS: 30,
  VOLUME: 1,
  ALLOW_0_BALANCE_TO_PLAY: true,
  PIN_CHECK: false,
  /**
   * The default PIN the operator gives new accounts (`operator create-player --pin`); the lock
   * screen's Turkish text names it as {secret}. Empty: the text says no PIN value.
   */
  DEFAULT_PIN: '',
  /** Read-only: the server serves its own IP_CHECK here; the web app asks `/check` only while it is on. */
  IP_CHEKCING: false,
  LANG_SELECT: true,
  SHOW_CONTACT_ON_LOGIN: true,
  LOGIN_WITH_TOKEN: false,
  HIDE_HEADER_BAR: false,
  /** Offers the login page's splash switch; the player's choice shows the full-page splash. */
  SPLASH_SCREEN: false,
  /** The login page's logo (spec §1 "login page logo", optional): shown or not. */
  SHOW_LOGIN_LOGO: true,
  /** The operator's logo for the login page (a site path or an https URL); '' shows the product's own. */
  LOGIN_LOGO_URL: '',
  SHOW_WEBCAM: true,
  AUTO_FULLSCREEN: false,
  DISCOUNT: true,
  BONUS: true,
  DISCOUNT_BALANCE_CHECK: true,
  CLICK_SOUND: true,
  CURRENCY: CURRENCY,
  LOCALE: 'tr-TR',
  DEFAULT_LANGUAGE: DEFAULT_LANGUAGE as Language,
  SITE_ID: 0,
  SINGLE_LOBBY: false,
  LOBBY_ID: 0,
  EXTERNAL_INFO: false,
  WHATSAPP_NUMBER: '',
  SUPPORT_PHONE: '',
  /** '' (none), 'tawk' or 'jivo'. */
  LIVE_CHAT_PROVIDER: '' as '' | 'tawk' | 'jivo',
  LIVE_CHAT_ID: '',
  LAYOUT_STYLE: 'layout3' as 'layout1' | 'layout2' | 'layout3',
  THEME: DEFAULT_THEME,
  /**
   * Player protection (issue 28; docs/sessions.md): hours a raised or removed limit waits before the
   * player may confirm it (Sweden: 72).
   */
  LIMIT_INCREASE_DELAY_H: 24,
  /**
   * Seconds in one "minute" of the player's reality check interval: 60 in production; a test makes
   * it short so it never waits real minutes.
   */
  REALITY_CHECK_UNIT_S: 60,
  /** Jurisdiction rule: the server refuses a spin that starts sooner than this after the last one started (UK: 2500). */
  MIN_SPIN_INTERVAL_MS: 0,
  /** Jurisdiction rule: off hides autoplay and the server refuses it. */
  AUTOPLAY_ALLOWED: true,
  /** Jurisdiction rule: no celebration of a win that is not more than the stake. */
  NO_FALSE_WIN_CELEBRATION: false,
} as const;
type Widen<T> = T extends boolean ? boolean : T extends number ? number : T extends string ? string : T;
export type Settings = {
  -readonly [K in keyof typeof DEFAULT_SETTINGS]: Widen<(typeof DEFAULT_SETTINGS)[K]>;
};

/** Applies an override object onto the defaults key by key, ignoring unknown keys and wrong types. */
export function mergeSettings(override: unknown): Settings {
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  if (override && typeof override === 'object') {
    for (const [key, value] of Object.entries(override)) {
      if (key in DEFAULT_SETTINGS && typeof value === typeof merged[key]) merged[key] = value;
    }
  }
  return merged as Settings;
}

/**
 * The discount rule of spec section 5, decided by the server from the runtime settings: refused when
 * the balance (cents) is at or above this many cents while DISCOUNT_BALANCE_CHECK is on; null when
 * the check is off.
 */
export function discountMinBalanceCents(
  settings: Pick<Settings, 'DISCOUNT_MIN' | 'DISCOUNT_BALANCE_CHECK'>,
): number | null {
  if (!settings.DISCOUNT_BALANCE_CHECK) return null;
  return Math.round(settings.DISCOUNT_MIN * CENTS_PER_UNIT);
}

/** Quality bands a simulated cabinet offers; the game lists them by Order, highest first. */
export const DEFAULT_QUALITY_BANDS = [
  { id: 'high', name: '640x360', width: 640, height: 360, bitrateKbps: 1200, Order: 2 },
  { id: 'low', name: '426x240', width: 426, height: 240, bitrateKbps: 400, Order: 1 },
] as const;

/** The frame rate the bands' bitrates are set for; other rates scale them. */
export const BASE_FPS = 30;
/** The `FPS` setting as a usable frame rate: a whole number from 1 to 60 (30 when not a number). */
export function clampFps(fps: unknown): number {
  const value = typeof fps === 'number' && Number.isFinite(fps) ? Math.round(fps) : BASE_FPS;
  return Math.min(60, Math.max(1, value));
}

/**
 * The quality bands at the `FPS` setting: each carries the frame rate, and its bitrate scales with
 * it (the same bits per frame), so a lower rate costs the network less at the same picture quality.
 * The cabinet encodes with these and the server lists these: one definition.
 */
export function bandsAtFps<B extends { bitrateKbps: number }>(
  bands: readonly B[],
  fps: unknown,
): (B & { fps: number })[] {
  const rate = clampFps(fps);
  return bands.map((band) => ({
    ...band,
    fps: rate,
    bitrateKbps: Math.max(50, Math.round((band.bitrateKbps * rate) / BASE_FPS)),
  }));
}

/** Cents as a plain decimal in major units ("1234.56", "-0.05"), exact (no floating point). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / CENTS_PER_UNIT)}.${String(abs % CENTS_PER_UNIT).padStart(2, '0')}`;
}
