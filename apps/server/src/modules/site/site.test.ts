import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { checkPreloadLink } from './page-shell.js';

describe('site routes and security', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    fs.writeFileSync(path.join(t.ctx.config.dataDir, 'Settings.json'), JSON.stringify({ PIN_CHECK: true, MAX_ALL_IN_LIMIT: 'oops', NOT_A_KEY: 1, IP_CHEKCING: true }));
  });
  afterAll(() => t.close());

  it('serves Settings.json as the defaults overridden key by key', async () => {
    const settings = (await t.app.inject({ method: 'GET', url: '/Settings.json' })).json();
    expect(settings.PIN_CHECK).toBe(true);
    expect(settings.MAX_ALL_IN_LIMIT).toBe(2_500_000); // wrong type ignored
    expect(settings).not.toHaveProperty('NOT_A_KEY');
    expect(settings.LANG_SELECT).toBe(true);
    // The server's IP_CHECK (off here) is the one switch; the file cannot claim otherwise.
    expect(settings.IP_CHEKCING).toBe(false);
  });

  it('answers /check with status, code, ip and country', async () => {
    const check = (await t.app.inject({ method: 'GET', url: '/check' })).json();
    expect(check).toEqual({ status: 1, code: 1, ip: '127.0.0.1', country: 'LOCAL' });
  });

  it('sends security headers and a CSP', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/check' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('publishes OpenAPI generated from the contract', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const p of ['/api/login', '/api/validate', '/api/player/balance', '/api/player/logout', '/api/machine/all', '/api/machine/{id}', '/api/auth/user/update', '/check']) {
      expect(doc.paths, p).toHaveProperty([p]);
    }
  });

  it('answers unknown API paths with 40400 and never leaks internals', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: false, code: Code.NotFound, ErrorMessage: 'Not found' });
  });

  it('keeps tokens and passwords out of the logs', async () => {
    const logged = await createTestApp();
    await logged.app.close();
    const { buildApp } = await import('../../server.js');
    const stream = { write: (line: string) => void lines.push(line) };
    const app = await buildApp(logged.ctx, { logger: true, logStream: stream });
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { username: 'demo', password: 'demo1234' } });
    const token = login.json().token as string;
    await app.inject({ method: 'GET', url: '/api/player/balance', headers: { authorization: `Bearer ${token}` } });
    await app.inject({ method: 'GET', url: `/ws/notifications?token=${token}` });
    await app.close();
    await logged.ctx.db.end();
    const all = lines.join('\n');
    expect(all.length).toBeGreaterThan(100);
    expect(all).not.toContain(token);
    expect(all).not.toContain(token.split('.')[2]);
    expect(all).not.toContain('demo1234');
  });
});

describe('IP policy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp((config) => {
      config.ipCheck.enabled = true;
      config.ipCheck.allowedCountries = ['TR'];
    });
  });
  afterAll(() => t.close());

  it('refuses sign-in from a country not on the allow-list with 10703', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'demo', password: 'demo1234' },
      remoteAddress: '8.8.8.8',
    });
    expect(response.json().code).toBe(Code.LoginIpNotPermitted);
    const check = (await t.app.inject({ method: 'GET', url: '/check', remoteAddress: '8.8.8.8' })).json();
    expect(check).toMatchObject({ status: 0, ip: '8.8.8.8', country: 'UNKNOWN' });
    const log = await t.ctx.db.query("SELECT type FROM auth_log ORDER BY id DESC LIMIT 1");
    expect(log.rows[0].type).toBe('login not allowed');
  });
});

describe('the built web app', () => {
  let t: TestApp;
  let dist: string;
  const script = `export const app = ${JSON.stringify('x'.repeat(4000))};\n`;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-test-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Reel Live</title>');
    // A page's own shell (apps/web/vite/route-shells.ts): index.html plus its chunks' preloads.
    fs.mkdirSync(path.join(dist, 'shells'));
    fs.writeFileSync(path.join(dist, 'shells/lobby.html'), '<!doctype html><title>Reel Live lobby shell</title>');
    fs.writeFileSync(path.join(dist, 'assets/app-Ab12Cd34.js'), script);
    // What the build writes beside it (apps/web/vite.config.ts).
    fs.writeFileSync(path.join(dist, 'assets/app-Ab12Cd34.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(dist, 'assets/app-Ab12Cd34.js.gz'), zlib.gzipSync(script));
    t = await createTestApp((config) => {
      config.webDistDir = dist;
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends hashed assets precompressed and cacheable for a year, the page itself revalidated', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/assets/app-Ab12Cd34.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gzip = await t.app.inject({ method: 'GET', url: '/assets/app-Ab12Cd34.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await t.app.inject({ method: 'GET', url: '/assets/app-Ab12Cd34.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    for (const url of ['/', '/lobby', '/game/1/Lucky']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toContain('text/html');
      expect(page.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing-1234.js' })).statusCode).toBe(404);
  });

  it("answers a page with its own shell when the build wrote one, and names the IP check to preload while the policy is on", async () => {
    const lobby = await t.app.inject({ method: 'GET', url: '/lobby/1/golden-reels?x=1' });
    expect(lobby.body).toContain('lobby shell');
    // Policy off: the web app does not ask /check, so nothing to preload.
    expect(lobby.headers.link).toBeUndefined();
    t.ctx.config.ipCheck.enabled = true;
    try {
      const checked = await t.app.inject({ method: 'GET', url: '/lobby/1/golden-reels?x=1' });
      expect(checked.headers.link).toBe('</check>; rel=preload; as=fetch; crossorigin');
    } finally {
      t.ctx.config.ipCheck.enabled = false;
    }
    expect((await t.app.inject({ method: 'GET', url: '/profile' })).body).toBe('<!doctype html><title>Reel Live</title>');
    expect((await t.app.inject({ method: 'GET', url: '/LOBBY' })).body).toBe('<!doctype html><title>Reel Live</title>');
  });
});

describe('the IP check preload hint', () => {
  it('points where the web app will ask, or nowhere when that depends on the page or another origin', () => {
    expect(checkPreloadLink('/api/')).toBe('</check>; rel=preload; as=fetch; crossorigin');
    expect(checkPreloadLink('')).toBe('</check>; rel=preload; as=fetch; crossorigin');
    expect(checkPreloadLink('/casino/api')).toBe('</casino/check>; rel=preload; as=fetch; crossorigin');
    expect(checkPreloadLink('api/')).toBeNull();
    expect(checkPreloadLink('https://api.example.com/api/')).toBeNull();
    expect(checkPreloadLink('//api.example.com/api/')).toBeNull();
  });
});
