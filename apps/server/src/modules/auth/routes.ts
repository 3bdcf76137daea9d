import { Code, LogType, LoginRequest, LoginResponse, ValidateResponse, OkResponse, RegisterResponse, ApiPath } from '@reel/protocol';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, securedSchema } from '../../lib/route-schema.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { Topic, type Bus } from '../../lib/bus.js';
import { underApiBase } from '../../lib/paths.js';
import { PLAYERS, PUBLIC } from '../../lib/route-access.js';
import type { GeoService } from '../geo/geo.js';
import { login, signedInAnswer, signedInPlayer } from './login.js';
import { writeAuthLog } from './auth-log.js';
import type { LockoutPolicy } from './credentials.js';
import type { PlayerBreaks } from '../protection/player-breaks.js';
import type { TokenService } from './tokens.js';

const SWAPPED_TOKEN_GRACE_S = 120;

interface AuthRouteDeps {
  db: Db;
  bus: Bus;
  tokens: TokenService;
  geo: GeoService;
  config: { login: LockoutPolicy };
  /** Player protection: a player on a break is refused at sign-in. */
  breaks: Pick<PlayerBreaks, 'refusal'>;
}

export const authRoutes: FastifyPluginAsyncTypebox<AuthRouteDeps> = async (app, deps) => {
  const schema = securedSchema('auth');

  app.post(
    ApiPath.login,
    {
      config: { roles: PUBLIC },
      schema: { tags: ['auth'], body: LoginRequest, response: { 200: LoginResponse, ...errorResponses } },
      // Per IP, shared with the other routes that check a password or PIN (credentials.ts).
      onRequest: app.credentialRateLimit,
    },
    async (request) =>
      login(deps, {
        username: request.body.username,
        password: request.body.password,
        ip: request.ip,
        ipAllowed: deps.geo.isAllowed(request.ip),
        siteId: request.body.site_id ?? 0,
      }),
  );

  // Sign-in with a stored token: the old token is swapped for a fresh one.
  app.get(
    ApiPath.validate,
    { config: { roles: PLAYERS }, schema: schema({ response: { 200: ValidateResponse, ...errorResponses } }) },
    async (request) => {
      const { db, tokens } = deps;
      const ip = request.ip;
      if (!deps.geo.isAllowed(ip)) {
        await writeAuthLog(db, { playerId: request.auth.id, type: LogType.LoginCheckFail, ip, detail: { reason: 'ip' } });
        throw new AppError(Code.LoginIpNotPermitted, 403);
      }
      const player = await signedInPlayer(db, request.auth.id);
      // The fresh token keeps the site the player signed in on.
      const siteId = await tokens.siteOf(request.auth.jti);
      const { token, claims } = await tokens.issue(player, ip, siteId);
      // Not revoked at once: other tabs share the stored token and move to the new one within this time.
      await tokens.retire(request.auth.jti, SWAPPED_TOKEN_GRACE_S, claims.jti);
      await writeAuthLog(db, { playerId: player.id, type: LogType.LoginCheckSuccess, ip, siteId });
      return signedInAnswer(player, token, ip);
    },
  );

  app.post(
    ApiPath.logout,
    { config: { roles: PLAYERS }, schema: schema({ response: { 200: OkResponse, ...errorResponses } }) },
    async (request) => {
      await deps.tokens.revoke(request.auth.jti);
      deps.bus.publish(Topic.tokenRevoked, { jti: request.auth.jti, playerId: request.auth.id });
      await writeAuthLog(deps.db, { playerId: request.auth.id, type: LogType.LogoutSuccess, ip: request.ip });
      return { status: true, code: Code.Success };
    },
  );

  // Players are created by operators; self-registration is closed (template leftover in the spec).
  app.post(underApiBase(ApiPath.register), { config: { roles: PUBLIC }, schema: { tags: ['auth'], response: { 403: RegisterResponse } } }, async (_request, reply) =>
    reply.status(403).send({
      status: false,
      code: Code.RegistrationClosed,
      ErrorMessage: 'Registration is closed, please contact support',
      error: { code: Code.RegistrationClosed },
    }),
  );
};
