/**
 * Every route declares the roles it allows, and the server checks them: the route table below is
 * what the app registers (a new route must be added here, with its roles); a route without a
 * declaration stops the app from starting; a player's token on a staff route is a 403 with 40304.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, Role, type OperatorClaims, type TokenClaims } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../test/helper.js';
import { ADMIN_ONLY, PLAYERS, PUBLIC, STAFF, type RouteRoles } from '../lib/route-access.js';
import type { MediaService } from '../modules/media/media-service.js';
import { authPlugin } from './auth.js';
import { installErrorHandler } from './errors.js';

type Who = 'public' | 'players' | 'staff' | 'admin';
const who = (roles: RouteRoles | undefined): Who | 'undeclared' =>
  roles === PUBLIC ? 'public' : roles === PLAYERS ? 'players' : roles === STAFF ? 'staff' : roles === ADMIN_ONLY ? 'admin' : 'undeclared';

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
  'GET /api/player/queue': 'players',
  'POST /api/player/queue': 'players',
  'DELETE /api/player/queue': 'players',
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
  'GET /ws/watch': 'players',
  'GET /ws/jackpot': 'players',
  'GET /ws/game': 'players',
  'GET /ws/agent': 'public',
  'POST /api/media/whep/:machineId': 'public',
  'PATCH /api/media/whep/:machineId/:viewerId': 'public',
  'DELETE /api/media/whep/:machineId/:viewerId': 'public',
  'POST /api/media/whep/:machineId/:viewerId/close': 'public',
  // The operator console (modules/admin, modules/operators): operator tokens only.
  'POST /api/admin/auth/login': 'public',
  'GET /api/admin/auth/me': 'staff',
  'POST /api/admin/auth/logout': 'staff',
  'GET /api/admin/operators': 'admin',
  'POST /api/admin/operators': 'admin',
  'POST /api/admin/operators/:id/role': 'admin',
  'POST /api/admin/operators/:id/status': 'admin',
  'GET /api/admin/players': 'staff',
  'GET /api/admin/players/:id': 'staff',
  'POST /api/admin/players/:id/deposit': 'admin',
  'POST /api/admin/players/:id/withdraw': 'admin',
  'POST /api/admin/players/:id/ban': 'staff',
  'POST /api/admin/players/:id/unban': 'staff',
  'POST /api/admin/players/:id/unlock': 'staff',
  'POST /api/admin/players/:id/password': 'admin',
  'POST /api/admin/players/:id/pin': 'admin',
  'POST /api/admin/players/:id/notes': 'staff',
  'GET /api/admin/players/:id/protection': 'staff',
  'POST /api/admin/players/:id/end-self-exclusion': 'admin',
  'GET /api/admin/ledger/accounts': 'staff',
  'GET /api/admin/ledger/transfers': 'staff',
  'GET /api/admin/ledger/audit': 'staff',
  'GET /api/admin/jackpots': 'staff',
  'GET /api/admin/audit': 'staff',
  'GET /api/admin/audit/verify': 'staff',
  // The live floor, hand pays and support chat (modules/floor, hand-pays, chat).
  'GET /api/admin/floor': 'staff',
  'POST /api/admin/floor/:machineId/kick': 'staff',
  'POST /api/admin/floor/:machineId/cash-out': 'staff',
  'PUT /api/admin/floor/:machineId/service': 'staff',
  'PUT /api/admin/floor/:machineId/emergency-stop': 'staff',
  'POST /api/admin/floor/:machineId/video': 'staff',
  'GET /ws/admin': 'staff',
  'GET /api/admin/hand-pays': 'staff',
  'POST /api/admin/hand-pays/:id/approve': 'staff',
  'GET /api/admin/chat/conversations': 'staff',
  'GET /api/admin/chat/conversations/:playerId': 'staff',
  'POST /api/admin/chat/conversations/:playerId/reply': 'staff',
  'PUT /api/admin/chat/status': 'staff',
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
      app.get(TEST_STAFF_ROUTE, { config: { roles: STAFF } }, async (request) => ({ id: request.operator.id }));
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

  it("a player's token on a staff route is a 403 with the catalogue's 40304; an operator's passes, and only there", async () => {
    const player = await t.login();
    const refused = await t.app.inject({ url: TEST_STAFF_ROUTE, headers: t.auth(player) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ status: false, code: Code.RoleNotAllowed, ErrorMessage: 'Your account does not have the role this needs' });
    // A player with the old player-side staff role is still a player.
    await t.ctx.db.query("UPDATE players SET roles = '{user,staff}' WHERE username = 'demo'");
    expect((await t.app.inject({ url: TEST_STAFF_ROUTE, headers: t.auth(player) })).statusCode).toBe(403);

    const staff = await t.operatorLogin('staff1', 'staff1234');
    expect((await t.app.inject({ url: TEST_STAFF_ROUTE, headers: t.auth(staff) })).statusCode).toBe(200);
    // An operator token is no player's: a player route does not take it.
    const onPlayerRoute = await t.app.inject({ url: '/api/player/balance', headers: t.auth(staff) });
    expect(onPlayerRoute.statusCode).toBe(401);
    expect(onPlayerRoute.json()).toMatchObject({ code: Code.InvalidAccessToken });
    expect((await t.app.inject({ url: TEST_STAFF_ROUTE })).statusCode).toBe(401);
    expect((await t.app.inject({ url: TEST_STAFF_ROUTE, headers: t.auth('not-a-token') })).statusCode).toBe(401);
  });
});

describe('the authorization plugin', () => {
  const claims = (role: string[]): TokenClaims =>
    ({ sub: '1', id: 1, jti: 'j', group: '', permissions: [], type: '', name: '', lastname: '', email: '', username: 'u', role, iat: 0, exp: 0 });
  const tokens = { verify: async (token: string) => claims(token === 'staff' ? ['user', 'staff'] : ['user']) };
  const operatorTokens = {
    verify: async (): Promise<OperatorClaims> => ({ sub: '1', id: 1, jti: 'o', username: 'op', role: 'staff', iat: 0, exp: 0 }),
  };

  it('refuses to start while a route declares no roles', async () => {
    const app = Fastify();
    await app.register(authPlugin, { tokens, operatorTokens });
    app.get('/forgotten', async () => 'no roles');
    app.get('/declared', { config: { roles: PUBLIC } }, async () => 'open');
    await expect(app.ready()).rejects.toThrow('routes without declared roles (config: { roles }): GET /forgotten');
  });

  it('checks a channel token against the route declaration with authorize', async () => {
    const app = Fastify();
    installErrorHandler(app);
    await app.register(authPlugin, { tokens, operatorTokens });
    app.get('/player-channel', { config: { roles: [Role.Staff] } }, async (request) => app.authorize(request, (request.query as { token?: string }).token));
    await app.ready();
    const as = async (token?: string) => (await app.inject({ url: `/player-channel${token ? `?token=${token}` : ''}`, headers: { authorization: 'Bearer staff' } })).json<{ code?: number; username?: string }>();
    expect(await as('player')).toMatchObject({ code: Code.RoleNotAllowed });
    expect(await as('staff')).toMatchObject({ username: 'u' });
    expect(await as()).toMatchObject({ code: Code.InvalidAccessToken });
    await app.close();
  });

  it('checks an operator channel token with authorizeOperator: operator roles only, from the token the database vouches for', async () => {
    const app = Fastify();
    installErrorHandler(app);
    await app.register(authPlugin, { tokens, operatorTokens });
    const channel = async (request: FastifyRequest) => app.authorizeOperator(request, (request.query as { token?: string }).token);
    // Not WebSocket routes here: the onRequest check runs too, so the requests carry a bearer that passes it.
    app.get('/floor-channel', { config: { roles: STAFF } }, channel);
    app.get('/admin-channel', { config: { roles: ADMIN_ONLY } }, channel);
    await app.ready();
    // Shaped as an operator token (header typ operator+jwt); the fake service vouches for a staff member.
    const operatorToken = `${Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'operator+jwt' })).toString('base64url')}.e30.sig`;
    const as = async (url: string, token?: string) =>
      (await app.inject({ url: `${url}${token ? `?token=${token}` : ''}`, headers: { authorization: `Bearer ${operatorToken}` } })).json<{ code?: number; username?: string }>();
    expect(await as('/floor-channel', operatorToken)).toMatchObject({ username: 'op', role: 'staff' });
    expect(await as('/floor-channel', 'player')).toMatchObject({ code: Code.RoleNotAllowed });
    expect(await as('/floor-channel')).toMatchObject({ code: Code.InvalidAccessToken });
    expect(await as('/admin-channel', operatorToken)).toMatchObject({ code: Code.RoleNotAllowed });
    await app.close();
  });
});
