import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch, setupI18n, setupSettings } from '@/testing/test-utils';
import { signInWithPassword } from './auth';
import { useAuthStore } from './auth-store';
import { notificationSocket } from './notification-socket';

beforeAll(async () => {
  setupSettings();
  await setupI18n('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
  useAuthStore.setState({ status: 'guest', user: null, token: null, wallet: null });
  localStorage.clear();
});

const base64Url = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const tokenWith = (claims: object) =>
  `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url({ sub: '3', id: 3, name: 'Alice', lastname: 'A', username: 'alice', role: ['user'], exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}.sig`;

async function signInAnswering(token: string) {
  vi.spyOn(notificationSocket, 'connect').mockImplementation(() => undefined);
  mockFetch({ 'POST /api/login': () => ({ body: { status: true, code: 20000, token, pin_code: false, ip_address: '127.0.0.1', versions: '', last_logon: null, last_logon_ip: null } }) });
  return signInWithPassword({ username: 'alice', password: 'alice1234', remember: false });
}

describe('the signed-in user', () => {
  it("carries the operator-set avatar from the token's photoURL", async () => {
    const user = await signInAnswering(tokenWith({ photoURL: 'https://cdn.example.com/alice.png' }));
    expect(user.photoURL).toBe('https://cdn.example.com/alice.png');
  });

  it('has none without one (the avatar then shows the initial)', async () => {
    const user = await signInAnswering(tokenWith({}));
    expect(user.photoURL).toBeNull();
  });
});
