/**
 * Origin check of WebSocket upgrades. A browser always sends `Origin`, and a WebSocket is not bound
 * by CORS, so without this check any web page a signed-in player visits could open the game or
 * notification channel with the player's token (cross-site WebSocket hijacking). An upgrade whose
 * Origin is neither the site's own (the host the request came to) nor in `WS_ALLOWED_ORIGINS`
 * answers HTTP 403 with code 40300 and never becomes a socket. Upgrades without Origin come from
 * programs, not pages (the cabinet agents, tests, tools) and pass as before: they hold a token or
 * a machine key of their own.
 */
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { Code } from '@reel/protocol';
import { errorBody } from '../lib/errors.js';

/** Normalizes an origin for comparison (`https://Example.com:443` → `https://example.com`); null when it is none. */
function normalizeOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** True when `origin` may open a socket on a request to `host`. `allowed` may hold '*'. */
export function originAllowed(origin: string, host: string | undefined, allowed: readonly string[]): boolean {
  if (allowed.includes('*')) return true;
  const normalized = normalizeOrigin(origin);
  if (!normalized) return false;
  if (host !== undefined && new URL(normalized).host === hostOf(host)) return true;
  return allowed.includes(normalized);
}

/** `host` as URL.host normalizes it (lower case, default port dropped); null when it is not one. */
function hostOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).host;
  } catch {
    return null;
  }
}

function requestHost(request: FastifyRequest): string | undefined {
  try {
    return request.host || undefined;
  } catch {
    return undefined;
  }
}

export const wsOriginPlugin = fp<{ allowedOrigins: readonly string[] }>(async (app, { allowedOrigins }) => {
  app.addHook('onRequest', async (request, reply) => {
    // `request.ws` is set by @fastify/websocket's own onRequest hook for upgrade requests.
    if (!request.ws) return;
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (originAllowed(origin, requestHost(request), allowedOrigins)) return;
    request.log.warn({ origin }, 'websocket upgrade refused: origin not allowed');
    return reply.status(403).send(errorBody(Code.Forbidden, 'Origin not allowed'));
  });
});
