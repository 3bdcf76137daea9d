/**
 * A web app served from another origin (its API_URL points here) may use the backend when
 * WS_ALLOWED_ORIGINS names its origin: REST and /check with CORS, machine pictures across origins.
 * Any other origin gets no CORS answer, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper.js';

const FRONT = 'http://front.example:8393';

describe('CORS for a front end on another origin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp((config) => {
      config.ws.allowedOrigins = [FRONT];
    });
  });
  afterAll(() => t.close());

  it('answers the preflight of a signed-in call from an allowed origin only', async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/player/discount',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,idempotency-key' },
      });
    const allowed = await preflight(FRONT);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(FRONT);
    expect(String(allowed.headers['access-control-allow-headers'])).toContain('authorization');
    expect(String(allowed.headers['access-control-allow-headers'])).toContain('idempotency-key');
    expect((await preflight('http://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets the allowed origin read REST answers, /check and the WHEP headers', async () => {
    const token = await t.login();
    const balance = await t.app.inject({ method: 'GET', url: '/api/player/balance', headers: { ...t.auth(token), origin: FRONT } });
    expect(balance.statusCode).toBe(200);
    expect(balance.headers['access-control-allow-origin']).toBe(FRONT);
    const check = await t.app.inject({ method: 'GET', url: '/check', headers: { origin: FRONT } });
    expect(check.headers['access-control-allow-origin']).toBe(FRONT);
    expect(String(check.headers['access-control-expose-headers'])).toContain('location');
    const foreign = await t.app.inject({ method: 'GET', url: '/check', headers: { origin: 'http://evil.example' } });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("serves machine pictures to pages of other origins (the lobby's <img>)", async () => {
    const picture = await t.app.inject({ method: 'GET', url: '/api/machine/1/image' });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});

describe('CORS without WS_ALLOWED_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('adds no CORS headers: same origin only, as before', async () => {
    const check = await t.app.inject({ method: 'GET', url: '/check', headers: { origin: FRONT } });
    expect(check.headers['access-control-allow-origin']).toBeUndefined();
  });
});
