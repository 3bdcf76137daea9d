import { DEFAULT_SETTINGS } from '@reel/protocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveTheme } from './themes';
import { loadRuntimeSettings, useRuntimeSettings } from './runtime-settings';
import { normaliseUserSettings } from '@/lib/user-settings';

afterEach(() => vi.unstubAllGlobals());

describe('Settings.json', () => {
  it('overrides the defaults key by key and ignores unknown keys and wrong types', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ PIN_CHECK: true, DISCOUNT_MIN: 'x', UNKNOWN: 1 })));
    const settings = await loadRuntimeSettings(fetchMock as unknown as typeof fetch);
    expect(fetchMock).toHaveBeenCalledWith('/Settings.json', expect.anything());
    expect(settings.PIN_CHECK).toBe(true);
    expect(settings.DISCOUNT_MIN).toBe(DEFAULT_SETTINGS.DISCOUNT_MIN);
    expect('UNKNOWN' in settings).toBe(false);
    expect(useRuntimeSettings.getState().loaded).toBe(true);
  });

  it('falls back to the defaults with a console note when the file is missing or broken', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const missing = vi.fn(async () => new Response('nope', { status: 404 }));
    expect(await loadRuntimeSettings(missing as unknown as typeof fetch)).toEqual({ ...DEFAULT_SETTINGS });
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await loadRuntimeSettings(offline as unknown as typeof fetch)).toEqual({ ...DEFAULT_SETTINGS });
    expect(info).toHaveBeenCalledTimes(2);
  });
});

describe('theme and user settings fallback', () => {
  it('keeps known theme names and falls back to dark1 otherwise', () => {
    expect(resolveTheme('dark3')).toBe('dark3');
    expect(resolveTheme('neon-disco')).toBe('dark1');
    expect(resolveTheme(undefined)).toBe('dark1');
  });
  it('repairs stored settings field by field', () => {
    const settings = normaliseUserSettings({ theme: { main: 'light1', navbar: 'bogus' }, direction: 'sideways', layout: { style: 'layout9' }, animations: false });
    expect(settings.theme).toEqual({ main: 'light1', navbar: 'dark1', toolbar: 'dark1', footer: 'dark1' });
    expect(settings.direction).toBe('ltr');
    expect(settings.layout.style).toBe('layout3');
    expect(settings.animations).toBe(false);
    expect(settings.customScrollbars).toBe(true);
    expect(normaliseUserSettings(null).theme.main).toBe('dark1');
  });
});
