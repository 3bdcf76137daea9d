import { vi } from 'vitest';
import { initI18n, changeLanguage } from '@/lib/i18n';
import { setRuntimeSettingsForTest } from '@/config/runtime-settings';
import type { Settings } from '@reel/protocol/client';
import type { AuthUser } from '@/lib/auth-store';

export async function setupI18n(language: 'en' | 'tr' | 'ar' = 'en') {
  await initI18n(language);
  await changeLanguage(language);
}

export function setupSettings(override: Partial<Settings> = {}) {
  setRuntimeSettingsForTest(override);
}

type Handler = (url: URL, init: RequestInit | undefined) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;

/** Replaces fetch with a table of `METHOD /path` handlers; anything else answers 404. */
export function mockFetch(routes: Record<string, Handler>) {
  const spy = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost/');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const handler = routes[key];
    const result = handler ? await handler(url, init) : { status: 404, body: { status: false, code: 40400, ErrorMessage: 'Not found' } };
    return new Response(JSON.stringify(result.body), {
      status: result.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', spy);
  return spy;
}

/** The demo account as the auth store holds it once signed in. */
export const demoPlayer: AuthUser = {
  id: 1,
  name: 'Demo',
  lastname: 'Player',
  email: 'demo@reel.live',
  username: 'demo',
  displayName: 'Demo Player',
  photoURL: null,
  group: 'player',
  permissions: [145],
  type: 'player',
  roles: ['user'],
  ipAddress: '127.0.0.1',
  versions: '',
  lastLogon: null,
  lastLogonIp: null,
  hasPin: false,
  shortcuts: [],
};
