/**
 * CORS for a web app served from another origin (its Settings.json `API_URL` points here): the
 * origins `WS_ALLOWED_ORIGINS` lists (any with `*`) may call the API, `/check` and WHEP from the
 * browser, as they may open the WebSockets (ws-origin.ts). Without a list nothing changes: no CORS
 * headers, same origin only. Identity travels as a bearer token, never a cookie, so no credentials.
 */
import cors from '@fastify/cors';
import fp from 'fastify-plugin';
import { IDEMPOTENCY_HEADER } from '@reel/protocol';
import { PUBLIC } from '../lib/route-access.js';

/** A preflight answer is cached this long (seconds), so a front end does not ask before every call. */
const PREFLIGHT_MAX_AGE_S = 600;

export const corsPlugin = fp<{ allowedOrigins: readonly string[] }>(async (app, { allowedOrigins }) => {
  if (allowedOrigins.length === 0) return;
  // The preflight route @fastify/cors adds (OPTIONS *) answers browsers before any credential: open.
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' && route.url === '*') route.config = { ...route.config, roles: PUBLIC };
  });
  await app.register(cors, {
    origin: allowedOrigins.includes('*') ? '*' : [...allowedOrigins],
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['accept', 'authorization', 'content-type', IDEMPOTENCY_HEADER],
    // WHEP answers name the viewer resource and the SDP kind; downloads name their file.
    exposedHeaders: ['location', 'x-sdp-kind', 'content-disposition'],
    maxAge: PREFLIGHT_MAX_AGE_S,
  });
});
