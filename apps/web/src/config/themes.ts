import { DEFAULT_THEME } from '@reel/protocol/client';

/** Named colour themes; the CSS for each lives in styles/themes.css under [data-theme="name"]. */
export const THEMES = ['dark1', 'dark2', 'dark3', 'dark4', 'greyDark', 'default', 'light1', 'light2'] as const;
export type ThemeName = (typeof THEMES)[number];

/** Unknown names (old settings, typos in Settings.json) fall back to the default theme. */
export function resolveTheme(name: unknown): ThemeName {
  return (THEMES as readonly unknown[]).includes(name) ? (name as ThemeName) : (DEFAULT_THEME as ThemeName);
}

export const LAYOUT_STYLES = ['layout1', 'layout2', 'layout3'] as const;
export type LayoutStyle = (typeof LAYOUT_STYLES)[number];

export function resolveLayoutStyle(name: unknown, fallback: LayoutStyle = 'layout3'): LayoutStyle {
  return (LAYOUT_STYLES as readonly unknown[]).includes(name) ? (name as LayoutStyle) : fallback;
}
