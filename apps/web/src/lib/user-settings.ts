import { ApiPath, type UserUpdateResponse } from '@reel/protocol/client';
import { create } from 'zustand';
import { getSettings } from '@/config/runtime-settings';
import { resolveLayoutStyle, resolveTheme, type LayoutStyle, type ThemeName } from '@/config/themes';
import { api } from './api-client';
import { setShortcuts, useAuthStore } from './auth-store';
import { local, StorageKey } from './storage';

type LayoutMode = 'fullwidth' | 'boxed';

export interface ThemeParts {
  main: ThemeName;
  navbar: ThemeName;
  toolbar: ThemeName;
  footer: ThemeName;
}

export interface UserSettings {
  /**
   * Layout config: the style, the desktop navbar folded to 64 px, the container (boxed: 1280 or
   * 1120 px wide, centred) and the admin bar above the toolbar.
   */
  layout: { style: LayoutStyle; navbarFolded: boolean; mode: LayoutMode; adminBar: boolean };
  theme: ThemeParts;
  direction: 'ltr' | 'rtl';
  customScrollbars: boolean;
  animations: boolean;
  /** The quick panel's toggles: only ones a player notices (docs/spec-decisions.md). */
  quickSettings: { clickSound: boolean };
}

function defaultUserSettings(): UserSettings {
  const theme = resolveTheme(getSettings().THEME);
  return {
    layout: {
      style: resolveLayoutStyle(getSettings().LAYOUT_STYLE),
      navbarFolded: false,
      mode: 'fullwidth',
      adminBar: false,
    },
    theme: { main: theme, navbar: theme, toolbar: theme, footer: theme },
    direction: 'ltr',
    customScrollbars: true,
    animations: true,
    quickSettings: { clickSound: true },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Whatever the server or storage holds is laid over the defaults field by field; bad values fall back. */
export function normaliseUserSettings(raw: unknown): UserSettings {
  const base = defaultUserSettings();
  if (!isObject(raw)) return base;
  const theme = isObject(raw.theme) ? raw.theme : {};
  const layout = isObject(raw.layout) ? raw.layout : {};
  const quick = isObject(raw.quickSettings) ? raw.quickSettings : {};
  const bool = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);
  return {
    layout: {
      style: resolveLayoutStyle(layout.style, base.layout.style),
      navbarFolded: bool(layout.navbarFolded, base.layout.navbarFolded),
      mode: layout.mode === 'boxed' ? 'boxed' : 'fullwidth',
      adminBar: bool(layout.adminBar, base.layout.adminBar),
    },
    theme: {
      main: 'main' in theme ? resolveTheme(theme.main) : base.theme.main,
      navbar: 'navbar' in theme ? resolveTheme(theme.navbar) : base.theme.navbar,
      toolbar: 'toolbar' in theme ? resolveTheme(theme.toolbar) : base.theme.toolbar,
      footer: 'footer' in theme ? resolveTheme(theme.footer) : base.theme.footer,
    },
    direction: raw.direction === 'rtl' ? 'rtl' : 'ltr',
    customScrollbars: bool(raw.customScrollbars, base.customScrollbars),
    animations: bool(raw.animations, base.animations),
    quickSettings: {
      clickSound: bool(quick.clickSound, base.quickSettings.clickSound),
    },
  };
}

interface UserSettingsState {
  settings: UserSettings;
}

export const useUserSettings = create<UserSettingsState>(() => ({ settings: defaultUserSettings() }));

export function loadGuestSettings(): void {
  let raw: unknown = null;
  try {
    raw = JSON.parse(local.get(StorageKey.guestSettings) ?? 'null');
  } catch {
    raw = null;
  }
  useUserSettings.setState({ settings: normaliseUserSettings(raw) });
}

export function applyServerSettings(raw: unknown): void {
  useUserSettings.setState({ settings: normaliseUserSettings(raw) });
}

/**
 * Guests keep their choices in this browser only; signed-in players' choices are saved through the
 * auth user update call (spec section 4).
 */
export async function updateUserSettings(patch: (current: UserSettings) => UserSettings): Promise<void> {
  const next = normaliseUserSettings(patch(useUserSettings.getState().settings));
  useUserSettings.setState({ settings: next });
  if (useAuthStore.getState().status !== 'authenticated') {
    local.set(StorageKey.guestSettings, JSON.stringify(next));
    return;
  }
  await api.post<UserUpdateResponse>(ApiPath.userUpdate, { user: { settings: next } });
}

export async function saveShortcuts(shortcuts: string[]): Promise<void> {
  setShortcuts(shortcuts);
  if (useAuthStore.getState().status !== 'authenticated') return;
  await api.post<UserUpdateResponse>(ApiPath.userUpdate, { user: { shortcuts } });
}
