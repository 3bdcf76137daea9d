/** Bearer-token authentication: `app.authenticate` as a preHandler sets `request.auth`. */
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { TokenClaims } from '@reel/protocol';
import { errors } from '../lib/errors.js';
import type { TokenService } from '../modules/auth/tokens.js';

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    auth: TokenClaims;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

export const authPlugin = fp<{ tokens: TokenService }>(async (app, { tokens }) => {
  app.decorateRequest('auth', null as unknown as TokenClaims);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw errors.unauthorized();
    request.auth = await tokens.verify(token);
  });
});
