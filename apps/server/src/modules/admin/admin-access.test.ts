/**
 * Who may call each /api/admin route: a player token is a 403 40304 everywhere, staff are refused
 * the admin-only routes with 403 40304, admins pass; and an operator's role counts from the
 * database on every request, so a demoted or disabled operator loses access at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { ADMIN_ONLY, STAFF } from '../../lib/route-access.js';

let t: TestApp;
let player: string;
let staff: string;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  player = await t.login();
  staff = await t.operatorLogin('staff1', 'staff1234');
  admin = await t.operatorLogin('admin', 'admin1234');
});
afterAll(() => t?.close());

/** Every operator route with an id filled in; bodies are empty (a refused role is answered before the body is read). */
const operatorRoutes = () =>
  t.app
    .routeRoles()
    // The staff channel (/ws/admin) checks its token in-channel: modules/floor/floor.test.ts.
    .filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/ws/') && (r.roles === STAFF || r.roles === ADMIN_ONLY))
    .map((r) => ({ method: r.method as 'GET' | 'POST' | 'PUT', url: r.url.replace(':id', '999999'), adminOnly: r.roles === ADMIN_ONLY }));

describe('every /api/admin route declares and enforces its roles', () => {
  it('covers every route under /api/admin but sign-in', () => {
    const admins = t.app.routeRoles().filter((r) => r.url.startsWith('/api/admin/') && r.method !== 'HEAD');
    expect(admins.filter((r) => r.roles !== STAFF && r.roles !== ADMIN_ONLY).map((r) => r.url)).toEqual(['/api/admin/auth/login']);
    expect(operatorRoutes().length).toBe(admins.length - 1);
  });

  it("a player's token gets 403 40304, no token 401, on every operator route", async () => {
    for (const route of operatorRoutes()) {
      const refused = await t.app.inject({ ...route, headers: t.auth(player) });
      expect(refused.statusCode, route.url).toBe(403);
      expect(refused.json(), route.url).toMatchObject({ status: false, code: Code.RoleNotAllowed });
      expect((await t.app.inject(route)).statusCode, route.url).toBe(401);
    }
  });

  it('staff are refused the admin-only routes with 403 40304 and pass the staff ones; admins pass all', async () => {
    // Sign-out would end the tokens this loop uses; it has its own test below.
    for (const route of operatorRoutes().filter((r) => r.url !== '/api/admin/auth/logout')) {
      const asStaff = await t.app.inject({ ...route, headers: t.auth(staff), payload: route.method === 'POST' ? {} : undefined });
      if (route.adminOnly) {
        expect(asStaff.statusCode, route.url).toBe(403);
        expect(asStaff.json(), route.url).toMatchObject({ code: Code.RoleNotAllowed });
      } else {
        expect([401, 403], route.url).not.toContain(asStaff.statusCode);
      }
      const asAdmin = await t.app.inject({ ...route, headers: t.auth(admin), payload: route.method === 'POST' ? {} : undefined });
      expect([401, 403], `${route.url} as admin`).not.toContain(asAdmin.statusCode);
    }
  });
});

describe('operator sign-in', () => {
  it('answers the operator and a token that /admin/auth/me reads back', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { username: 'staff2', password: 'staff1234' } });
    expect(response.json()).toMatchObject({ status: true, operator: { username: 'staff2', role: 'staff', status: 'active' } });
    const me = await t.app.inject({ url: '/api/admin/auth/me', headers: t.auth(response.json<{ token: string }>().token) });
    expect(me.json()).toMatchObject({ operator: { username: 'staff2', role: 'staff' } });
  });

  it('does not take a player account, nor a player the operator form', async () => {
    const asPlayer = await t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { username: 'demo', password: 'demo1234' } });
    expect(asPlayer.json()).toMatchObject({ status: false, code: Code.LoginUnknownUser });
    const asOperator = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password: 'admin1234' } });
    expect(asOperator.json()).toMatchObject({ status: false, code: Code.LoginUnknownUser });
  });

  it('blocks the account after LOGIN_MAX_FAILURES wrong passwords, like a player sign-in', async () => {
    await t.app.inject({ method: 'POST', url: '/api/admin/operators', headers: t.auth(admin), payload: { username: 'guesser', password: 'right-password', role: 'staff', reason: 'test' } });
    const attempt = (password: string) => t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { username: 'guesser', password } });
    const max = t.ctx.config.login.maxFailures;
    for (let i = 1; i < max; i++) expect((await attempt('wrong')).json()).toMatchObject({ code: Code.LoginIncorrect, Params: { left_count: max - i } });
    expect((await attempt('wrong')).json()).toMatchObject({ code: Code.LoginBlocked });
    expect((await attempt('right-password')).json()).toMatchObject({ code: Code.LoginBlocked });
    const log = await t.ctx.db.query("SELECT type FROM operator_auth_log WHERE username = 'guesser' ORDER BY id");
    expect(log.rows.at(-1)).toEqual({ type: 'temporary blocked' });
  });

  it('a demoted admin loses the admin routes at once, a disabled operator everything, on the token it holds', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/admin/operators', headers: t.auth(admin), payload: { username: 'boss2', password: 'boss2-password', role: 'admin', reason: 'second admin' } });
    const id = created.json<{ operator: { id: number } }>().operator.id;
    const boss2 = await t.operatorLogin('boss2', 'boss2-password');
    expect((await t.app.inject({ url: '/api/admin/operators', headers: t.auth(boss2) })).statusCode).toBe(200);

    const demoted = await t.app.inject({ method: 'POST', url: `/api/admin/operators/${id}/role`, headers: t.auth(admin), payload: { role: 'staff', reason: 'moved to the floor' } });
    expect(demoted.json()).toMatchObject({ operator: { role: 'staff' } });
    expect((await t.app.inject({ url: '/api/admin/operators', headers: t.auth(boss2) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/players', headers: t.auth(boss2) })).statusCode).toBe(200);

    await t.app.inject({ method: 'POST', url: `/api/admin/operators/${id}/status`, headers: t.auth(admin), payload: { status: 'disabled', reason: 'left' } });
    expect((await t.app.inject({ url: '/api/admin/players', headers: t.auth(boss2) })).statusCode).toBe(401);
    const again = await t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { username: 'boss2', password: 'boss2-password' } });
    expect(again.json()).toMatchObject({ code: Code.OperatorDisabled });
  });

  it('an admin cannot change their own role', async () => {
    const me = await t.app.inject({ url: '/api/admin/auth/me', headers: t.auth(admin) });
    const id = me.json<{ operator: { id: number } }>().operator.id;
    const own = await t.app.inject({ method: 'POST', url: `/api/admin/operators/${id}/role`, headers: t.auth(admin), payload: { role: 'staff', reason: 'oops' } });
    expect(own.json()).toMatchObject({ code: Code.OwnAccountNotAllowed });
  });

  it('sign-out ends the token', async () => {
    const token = await t.operatorLogin('staff2', 'staff1234');
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/auth/logout', headers: t.auth(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/admin/auth/me', headers: t.auth(token) })).statusCode).toBe(401);
  });
});
