/**
 * Authentication and authorization for every route, in one place. Each route declares the roles it
 * allows (`config: { roles }`, lib/route-access.ts); a route that declares nothing stops the server
 * from starting. For HTTP routes the `onRequest` hook checks the bearer token and its roles before
 * the body is read: no token 401, a token without an allowed role 403 with 40304, and sets
 * `request.auth`. Operator routes (`STAFF`, `ADMIN_ONLY`) take only an operator token, whose role
 * the database is asked for on each request, and set `request.operator`; a player's token there is
 * a 403 with 40304, and an operator token on a player route a 401. WebSocket channels get their
 * token in the query or their first message and answer in-channel, so they call
 * `app.authorize(request, token)` (or `app.authorizeOperator`), which check the same declaration.
 */
import fp from 'fastify-plugin';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { Code, type OperatorClaims, type TokenClaims } from '@reel/protocol';
import { AppError, errors } from '../lib/errors.js';
import { isOperatorRoles, PUBLIC, type RouteRoles } from '../lib/route-access.js';
import { looksLikeOperatorToken } from '../modules/operators/operator-tokens.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Verifies `token` and checks it carries a role the request's route allows; throws 401 / 403 AppErrors. */
    authorize: (request: FastifyRequest, token: string | undefined) => Promise<TokenClaims>;
    /** The same for an operator route: an operator token whose current role the route allows. */
    authorizeOperator: (request: FastifyRequest, token: string | undefined) => Promise<OperatorClaims>;
    /** Every route with the roles it declares (the route table tests check). */
    routeRoles: () => { method: string; url: string; roles: RouteRoles | undefined }[];
  }
  interface FastifyRequest {
    auth: TokenClaims;
    /** Set on operator routes (`/api/admin/`) instead of `auth`. */
    operator: OperatorClaims;
  }
  interface FastifyContextConfig {
    /** Set here on `websocket: true` routes: the channel checks its token itself, with `authorize`. */
    channel?: boolean;
  }
}

interface AuthOptions {
  /** Signature, expiry and revocation (modules/auth/tokens.ts). */
  tokens: { verify(token: string): Promise<TokenClaims> };
  /** Operator tokens (modules/operators/operator-tokens.ts). */
  operatorTokens: { verify(token: string): Promise<OperatorClaims> };
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

const allows = (roles: RouteRoles, claims: TokenClaims) =>
  roles === PUBLIC ||
  (Array.isArray(roles) && Array.isArray(claims.role) && claims.role.some((role) => roles.includes(role as never)));

export const authPlugin = fp<AuthOptions>(async (app, { tokens, operatorTokens }) => {
  // Kept as registered: a later onRoute hook (the docs' PUBLIC stamp) may still fill in `config`.
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    if (route.websocket) route.config = { ...route.config, channel: true };
    routes.push(route);
  });
  app.addHook('onReady', async () => {
    const undeclared = routes.filter((route) => route.config?.roles === undefined);
    if (undeclared.length)
      throw new Error(
        `routes without declared roles (config: { roles }): ${undeclared.map((r) => `${String(r.method)} ${r.url}`).join(', ')}`,
      );
  });
  app.decorate('routeRoles', () =>
    routes.flatMap((route) => [route.method].flat().map((method) => ({ method, url: route.url, roles: route.config?.roles }))),
  );

  app.decorateRequest('auth', null as unknown as TokenClaims);
  app.decorateRequest('operator', null as unknown as OperatorClaims);
  app.decorate('authorize', async (request: FastifyRequest, token: string | undefined) => {
    const roles = request.routeOptions.config.roles;
    if (roles === undefined) throw errors.forbidden();
    if (!token) throw errors.unauthorized();
    // An operator token is not a player's: refused here by the player token check (401).
    const claims = await tokens.verify(token);
    if (!allows(roles, claims)) throw new AppError(Code.RoleNotAllowed, 403);
    return claims;
  });

  app.decorate('authorizeOperator', async (request: FastifyRequest, token: string | undefined) => {
    const roles = request.routeOptions.config.roles;
    if (!isOperatorRoles(roles)) throw errors.forbidden();
    if (!token) throw errors.unauthorized();
    if (!looksLikeOperatorToken(token)) {
      // A genuine player token is a wrong role (403); anything else is no token at all (401).
      await tokens.verify(token);
      throw new AppError(Code.RoleNotAllowed, 403);
    }
    const claims = await operatorTokens.verify(token);
    if (!roles.operators.includes(claims.role)) throw new AppError(Code.RoleNotAllowed, 403);
    return claims;
  });

  app.addHook('onRequest', async (request) => {
    const { roles, channel } = request.routeOptions.config;
    // No route (the 404 answer), an open route, or a channel that checks the token it is sent.
    if (roles === undefined || roles === PUBLIC || channel) return;
    if (isOperatorRoles(roles)) request.operator = await app.authorizeOperator(request, bearerToken(request));
    else request.auth = await app.authorize(request, bearerToken(request));
  });
});
