import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const get = (url: string, bearer = token) => t.app.inject({ method: 'GET', url, headers: t.auth(bearer) });
const post = (url: string, payload: object, bearer = token) =>
  t.app.inject({ method: 'POST', url, payload, headers: t.auth(bearer) });

describe('player', () => {
  it('balance in cents with its parts', async () => {
    const response = await get('/api/player/balance');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: true,
      code: Code.Success,
      balance: 100_000,
      cash: 100_000,
      credit: 0,
      bonus: 0,
      discount: 0,
      currency: 'TRY',
    });
    expect((await get('/api/player/balance', 'bad')).statusCode).toBe(401);
  });

  it('profile with the spec fields and no secrets', async () => {
    const body = (await get('/api/player/profile')).json();
    expect(body).toMatchObject({ username: 'demo', name: 'Demo', lastname: 'Player', email: 'demo@reel.live', pin_code: true, password_expired: false });
    expect(body.password_changed_at).toBeTruthy();
    expect(JSON.stringify(body)).not.toMatch(/hash|argon/);
  });

  it('changes the password with the spec codes', async () => {
    const wrongOld = await post('/api/player/password', { old_password: 'nope', new_password: 'longenough' });
    expect(wrongOld.json().code).toBe(Code.OldPasswordWrong);
    const short = await post('/api/player/password', { old_password: 'demo1234', new_password: 'abc' });
    expect(short.json().code).toBe(Code.PasswordTooShort);
    const missing = await post('/api/player/password', { old_password: 'demo1234' });
    expect(missing.json().code).toBe(Code.InvalidRequest);
    const ok = await post('/api/player/password', { old_password: 'demo1234', new_password: 'new-secret-1' });
    expect(ok.json()).toMatchObject({ status: true, code: Code.Success });
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'demo', password: 'new-secret-1' } })).statusCode).toBe(200);
    await post('/api/player/password', { old_password: 'new-secret-1', new_password: 'demo1234' });
    const log = await t.ctx.db.query("SELECT count(*)::int AS n FROM auth_log WHERE type = 'changed password'");
    expect(log.rows[0].n).toBe(2);
  });

  it('verifies the PIN on the server and stores only a hash', async () => {
    expect((await post('/api/player/pin/verify', { pin: '1234' })).json().code).toBe(Code.Success);
    expect((await post('/api/player/pin/verify', { pin: '9999' })).json().code).toBe(Code.PinWrong);
    expect((await post('/api/player/pin', { password: 'wrong', pin: '5555' })).json().code).toBe(Code.OldPasswordWrong);
    expect((await post('/api/player/pin', { password: 'demo1234', pin: 'abcd' })).json().code).toBe(Code.InvalidRequest);
    expect((await post('/api/player/pin', { password: 'demo1234', pin: '5555' })).json().code).toBe(Code.Success);
    expect((await post('/api/player/pin/verify', { pin: '5555' })).json().code).toBe(Code.Success);
    const { rows } = await t.ctx.db.query("SELECT pin_hash FROM players WHERE username = 'demo'");
    expect(rows[0].pin_hash).toMatch(/^\$argon2id\$/);
  });

  it('saves settings and shortcuts for the player', async () => {
    const saved = await post('/api/auth/user/update', { user: { settings: { layout: { style: 'layout2' } }, shortcuts: ['lobby', 'profile'] } });
    expect(saved.json()).toMatchObject({ status: true, settings: { layout: { style: 'layout2' } }, shortcuts: ['lobby', 'profile'] });
    expect((await get('/api/player/profile')).json().shortcuts).toEqual(['lobby', 'profile']);
    expect((await post('/api/auth/user/update', { user: { shortcuts: 'lobby' } })).json().code).toBe(Code.InvalidRequest);
    expect((await post('/api/auth/user/update', { user: { settings: { x: 'y'.repeat(20_000) } } })).json().code).toBe(Code.InvalidRequest);
  });
});
