/**
 * Issue 9.6: the routes that take a password or PIN with a (possibly stolen) token guess no more
 * than the sign-in form: one failure counter per account and one per-IP rate limit for all of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, LogType } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';

const MAX_FAILURES = 3;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp((config) => {
    config.login.maxFailures = MAX_FAILURES;
    config.login.blockMinutes = 15;
  });
});
afterAll(() => t.close());

const post = (url: string, payload: object, token: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: t.auth(token) });
const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
const unblock = (username: string) =>
  t.ctx.db.query('UPDATE players SET failed_logins = 0, blocked_until = NULL WHERE username = $1', [
    username,
  ]);

describe('the sign-in lockout on password and PIN routes', () => {
  const routes = [
    {
      name: 'change password',
      url: '/api/player/password',
      wrong: { old_password: 'wrong', new_password: 'long-enough-1' },
      code: Code.OldPasswordWrong,
    },
    {
      name: 'set PIN',
      url: '/api/player/pin',
      wrong: { password: 'wrong', pin: '4321' },
      code: Code.OldPasswordWrong,
    },
    { name: 'PIN check', url: '/api/player/pin/verify', wrong: { pin: '0000' }, code: Code.PinWrong },
  ];

  for (const route of routes) {
    it(`${route.name}: counts down, blocks at the limit, and the block holds for sign-in and the right secret`, async () => {
      await unblock('bobby');
      const token = await t.login('bobby', 'bobby1234');
      for (let left = MAX_FAILURES - 1; left > 0; left--) {
        const response = await post(route.url, route.wrong, token);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          status: false,
          code: route.code,
          Params: { left_count: left, block_time: 15 },
        });
      }
      const last = await post(route.url, route.wrong, token);
      expect(last.statusCode).toBe(403);
      expect(last.json()).toMatchObject({ code: Code.LoginBlocked, Params: { block_time: 15 } });

      // Blocked: the right secret on the same route, and sign-in, are refused too.
      const right =
        route.url === '/api/player/pin/verify'
          ? { pin: '2222' }
          : route.url === '/api/player/pin'
            ? { password: 'bobby1234', pin: '2222' }
            : { old_password: 'bobby1234', new_password: 'bobby1234' };
      expect((await post(route.url, right, token)).json().code).toBe(Code.LoginBlocked);
      expect((await login('bobby', 'bobby1234')).json().code).toBe(Code.LoginBlocked);
      const { rows } = await t.ctx.db.query(
        "SELECT blocked_until > now() AS blocked FROM players WHERE username = 'bobby'",
      );
      expect(rows[0].blocked).toBe(true);
    });
  }

  it('sign-in failures and password-route failures share one counter', async () => {
    await unblock('bobby');
    const token = await t.login('bobby', 'bobby1234');
    expect((await login('bobby', 'wrong-1')).json()).toMatchObject({
      code: Code.LoginIncorrect,
      Params: { left_count: 2 },
    });
    expect((await post('/api/player/pin/verify', { pin: '0000' }, token)).json()).toMatchObject({
      code: Code.PinWrong,
      Params: { left_count: 1 },
    });
    expect(
      (await post('/api/player/password', { old_password: 'x', new_password: 'long-enough-1' }, token)).json()
        .code,
    ).toBe(Code.LoginBlocked);
    const log = await t.ctx.db.query<{ type: string; detail: { via?: string } }>(
      "SELECT type, detail FROM auth_log WHERE player_id = (SELECT id FROM players WHERE username = 'bobby') ORDER BY id DESC LIMIT 2",
    );
    expect(log.rows.map((r) => [r.type, r.detail.via])).toEqual([
      [LogType.TemporaryBlocked, 'change password'],
      [LogType.LoginFail, 'PIN check'],
    ]);
  });

  it('a right secret resets the counter', async () => {
    await unblock('bobby');
    const token = await t.login('bobby', 'bobby1234');
    await post('/api/player/pin/verify', { pin: '0000' }, token);
    await post('/api/player/pin/verify', { pin: '0000' }, token);
    expect((await post('/api/player/pin/verify', { pin: '2222' }, token)).json().code).toBe(Code.Success);
    expect((await post('/api/player/pin/verify', { pin: '0000' }, token)).json().Params.left_count).toBe(
      MAX_FAILURES - 1,
    );
    await unblock('bobby');
  });
});

describe('the shared per-IP rate limit', () => {
  it('sign-in (players and operators) and the password and PIN routes draw from one bucket', async () => {
    const limited = await createTestApp((config) => {
      config.login.rateLimitPerMinute = 4;
      config.login.maxFailures = 100;
    });
    try {
      const token = await limited.login('alice', 'alice1234'); // 1
      const send = (url: string, payload: object) =>
        limited.app.inject({ method: 'POST', url, payload, headers: limited.auth(token) });
      expect((await send('/api/player/pin/verify', { pin: '0000' })).statusCode).toBe(400); // 2
      expect(
        (await send('/api/player/password', { old_password: 'x', new_password: 'long-enough-1' })).statusCode,
      ).toBe(400); // 3
      expect((await send('/api/player/pin', { password: 'x', pin: '1234' })).statusCode).toBe(400); // 4
      for (const [url, payload] of [
        ['/api/player/pin/verify', { pin: '1111' }],
        ['/api/player/password', { old_password: 'alice1234', new_password: 'long-enough-1' }],
        ['/api/login', { username: 'alice', password: 'alice1234' }],
        // The operator console's sign-in draws from the same bucket.
        ['/api/admin/auth/login', { username: 'admin', password: 'admin1234' }],
      ] as const) {
        const response = await send(url, payload);
        expect(response.statusCode).toBe(429);
        expect(response.json()).toMatchObject({ status: false, code: Code.TooManyRequests });
      }
      // Other routes are not limited by it.
      expect(
        (
          await limited.app.inject({
            method: 'GET',
            url: '/api/player/balance',
            headers: limited.auth(token),
          })
        ).statusCode,
      ).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
