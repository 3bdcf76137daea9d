import { vi } from 'vitest';
import { initI18n, changeLanguage } from '@/lib/i18n';
import { setRuntimeSettingsForTest } from '@/config/runtime-settings';
import type { Settings } from '@reel/protocol/client';

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
