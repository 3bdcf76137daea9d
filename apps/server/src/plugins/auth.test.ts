/**
 * Every route declares the roles it allows, and the server checks them: the route table below is
 * what the app registers (a new route must be added here, with its roles); a route without a
 * declaration stops the app from starting; a player's token on a staff route is a 403 with 40304.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, type TokenClaims } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../test/helper.js';
import { PLAYERS, PUBLIC, STAFF, type RouteRoles } from '../lib/route-access.js';
import type { MediaService } from '../modules/media/media-service.js';
import { authPlugin } from './auth.js';
import { installErrorHandler } from './errors.js';

type Who = 'public' | 'players' | 'staff';
const who = (roles: RouteRoles | undefined): Who | 'undeclared' =>
  roles === PUBLIC ? 'public' : roles === PLAYERS ? 'players' : roles === STAFF ? 'staff' : 'undeclared';

/** Method and path of every route the app registers (HEAD routes follow their GET), and who may call it. */
const ROUTES: Record<string, Who> = {
  'POST /api/login': 'public',
  'GET /api/validate': 'players',
  'POST /api/player/logout': 'players',
  'POST /api/auth/register': 'public',
  'GET /api/player/balance': 'players',
  'GET /api/player/profile': 'players',
  'POST /api/player/password': 'players',
  'POST /api/player/pin': 'players',
  'POST /api/player/pin/verify': 'players',
  'POST /api/auth/user/update': 'players',
  'GET /api/player/discount': 'players',
  'GET /api/player/bonus': 'players',
  'GET /api/machine/brands': 'players',
  'GET /api/machine/all': 'players',
  'GET /api/machine/paytable': 'public',
  'GET /api/machine/:id/image': 'public',
  'GET /api/machine/:id': 'players',
  'GET /api/player/slot-sessions': 'players',
  'GET /api/player/transactions': 'players',
  'GET /api/player/slot-sessions.csv': 'players',
  'GET /api/player/slot-sessions/:id/games': 'players',
  'GET /api/player/slot-sessions/:id/games.csv': 'players',
  'GET /api/player/limits': 'players',
  'PUT /api/player/limits': 'players',
  'POST /api/player/limits/confirm': 'players',
  'PUT /api/player/reality-check': 'players',
  'POST /api/player/reality-check/ack': 'players',
  'POST /api/player/break': 'players',
  'GET /api/player/transactions.csv': 'players',
  'GET /api/chat/contacts': 'players',
  'GET /api/chat/user': 'players',
  'POST /api/chat/user/data': 'players',
  'GET /api/chat/get-chat': 'players',
  'POST /api/chat/send-message': 'players',
  'GET /api/quick-panel/data': 'players',
  'GET /api/player/session': 'players',
  'POST /api/player/kick': 'players',
  'POST /api/player/cancel': 'players',
  'GET /ws/notifications': 'players',
  'GET /ws/jackpot': 'players',
  'GET /ws/game': 'players',
  'GET /ws/agent': 'public',
  'POST /api/media/whep/:machineId': 'public',
  'PATCH /api/media/whep/:machineId/:viewerId': 'public',
  'DELETE /api/media/whep/:machineId/:viewerId': 'public',
  'POST /api/media/whep/:machineId/:viewerId/close': 'public',
  'GET /check': 'public',
  'GET /Settings.json': 'public',
  'GET /*': 'public',
  // The built web app's files (this test's dist holds index.html and one asset).
  'GET /index.html': 'public',
  'GET /': 'public',
  'GET /assets/app.js': 'public',
};

const TEST_STAFF_ROUTE = '/api/test/staff-only';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    (config) => {
      // A web build, so the static files' routes are registered (and declared) too.
      fs.mkdirSync(path.join(config.webDistDir, 'assets'), { recursive: true });
      fs.writeFileSync(path.join(config.webDistDir, 'index.html'), '<!doctype html><title>t</title>');
      fs.writeFileSync(path.join(config.webDistDir, 'assets', 'app.js'), 'void 0;');
    },
    (ctx) => {
      // Video on, so the WHEP routes are registered: the viewers are never called here.
      ctx.media = { client: { createViewer: async () => ({}), answerViewer: async () => {}, deleteViewer: async () => {} } } as unknown as MediaService;
    },
    (app) => {
      app.get(TEST_STAFF_ROUTE, { config: { roles: STAFF } }, async (request) => ({ id: request.auth.id }));
    },
  );
});
afterAll(() => t?.close());

const routeKey = (method: string, url: string) => `${method} ${url}`;

describe('route roles', () => {
  it('every route the app registers declares its roles, as the table says', () => {
    const registered = t.app.routeRoles().filter((r) => r.method !== 'HEAD' && r.url !== TEST_STAFF_ROUTE);
    const docs = registered.filter((r) => r.url.startsWith('/api/docs'));
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.every((r) => r.roles === PUBLIC)).toBe(true);
    const actual = Object.fromEntries(
      registered.filter((r) => !r.url.startsWith('/api/docs')).map((r) => [routeKey(r.method, r.url), who(r.roles)]),
    );
    expect(actual).toEqual(ROUTES);
    // HEAD routes (made for each GET) carry their GET's roles.
    for (const head of t.app.routeRoles().filter((r) => r.method === 'HEAD' && r.url !== TEST_STAFF_ROUTE))
      expect(who(head.roles), head.url).toBe(head.url.startsWith('/api/docs') ? 'public' : actual[routeKey('GET', head.url)]);
  });

  it('a player route refuses a request without a token with 401 40102, before its body is read', async () => {
    for (const [key, roles] of Object.entries(ROUTES)) {
      if (roles !== 'players' || key.includes(' /ws/')) continue;
      const [method, url] = key.split(' ') as ['GET' | 'POST', string];
      const response = await t.app.inject({ method, url: url.replace(':id', '1'), payload: method === 'POST' ? '{not json' : undefined, headers: { 'content-type': 'application/json' } });
      expect(response.statusCode, key).toBe(401);
      expect(response.json(), key).toMatchObject({ status: false, code: Code.InvalidAccessToken });
    }
  });

  it("a player's token on a staff route is a 403 with the catalogue's 40304; a staff token passes", async () => {
    const player = await t.login();
    const refused = await t.app.inject({ url: TEST_STAFF_ROUTE, headers: t.auth(player) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ status: false, code: Code.RoleNotAllowed, ErrorMessage: 'Your account does not have the role this needs' });

    await t.ctx.db.query("UPDATE players SET roles = '{user,staff}' WHERE username = 'demo'");
    try {
      // The role counts from the database at once, on the token the player already holds.
      const allowed = await t.app.inject({ url: TEST_STAFF_ROUTE, headers: t.auth(player) });
      expect(allowed.statusCode).toBe(200);
    } finally {
      await t.ctx.db.query("UPDATE players SET roles = '{user}' WHERE username = 'demo'");
    }
    expect((await t.app.inject({ url: TEST_STAFF_ROUTE, headers: t.auth(player) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: TEST_STAFF_ROUTE })).statusCode).toBe(401);
  });
});

describe('the authorization plugin', () => {
  const claims = (role: string[]): TokenClaims =>
    ({ sub: '1', id: 1, jti: 'j', group: '', permissions: [], type: '', name: '', lastname: '', email: '', username: 'u', role, iat: 0, exp: 0 });
  const tokens = { verify: async (token: string) => claims(token === 'staff' ? ['user', 'staff'] : ['user']) };

  it('refuses to start while a route declares no roles', async () => {
    const app = Fastify();
    await app.register(authPlugin, { tokens });
    app.get('/forgotten', async () => 'no roles');
    app.get('/declared', { config: { roles: PUBLIC } }, async () => 'open');
    await expect(app.ready()).rejects.toThrow('routes without declared roles (config: { roles }): GET /forgotten');
  });

  it('checks a channel token against the route declaration with authorize', async () => {
    const app = Fastify();
    installErrorHandler(app);
    await app.register(authPlugin, { tokens });
    app.get('/staff-channel', { config: { roles: STAFF } }, async (request) => app.authorize(request, (request.query as { token?: string }).token));
    await app.ready();
    const as = async (token?: string) => (await app.inject({ url: `/staff-channel${token ? `?token=${token}` : ''}`, headers: { authorization: 'Bearer staff' } })).json<{ code?: number; username?: string }>();
    expect(await as('player')).toMatchObject({ code: Code.RoleNotAllowed });
    expect(await as('staff')).toMatchObject({ username: 'u' });
    expect(await as()).toMatchObject({ code: Code.InvalidAccessToken });
    await app.close();
  });
});
