/**
 * Issue 9.5: bad input answers a coded 4xx (or closes a socket with a reason), never a 500, and
 * writes nothing. Each case the issue lists, over `inject` and, where the HTTP layer itself matters
 * (431, a streamed CSV, NUL in a header), over a real socket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, INT4_MAX, WsCloseCode } from '@reel/protocol';
import { createTestApp, type TestApp } from './helper.js';
import { rawRequest } from './raw-http.js';
import { TestSocket } from './ws-client.js';
import { FakeCabinets } from './doubles/fake-cabinets.js';
import { SessionManager } from '../src/modules/sessions/session-manager.js';
import { databaseInputError } from '../src/lib/errors.js';

const NUL = '\u0000';
const INIT_TIMEOUT_MS = 400;

let t: TestApp;
let token: string;
let port: number;
let machineId: number;
const cabinets = new FakeCabinets();

beforeAll(async () => {
  t = await createTestApp(
    (config) => {
      config.ws.initTimeoutMs = INIT_TIMEOUT_MS;
    },
    async (ctx) => {
      // The game channel over cabinets the test controls (the API tests run no machine agents).
      ctx.sessions = new SessionManager(
        ctx,
        cabinets,
        { grant: async () => null, setBand: async () => {} },
        ctx.config.sessions,
      );
      await ctx.sessions.start();
      const { rows } = await ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1');
      machineId = rows[0]!.id;
      cabinets.connect(machineId);
    },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
  token = await t.login();
});
afterAll(() => t.close());

const inject = (
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: {
      ...t.auth(token),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined
      ? {}
      : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });

/** A coded 4xx in the catalogue's error shape. */
function expectCoded(
  response: { statusCode: number; json: () => any },
  status = 400,
  code: number = Code.InvalidRequest,
) {
  expect(response.statusCode).toBe(status);
  expect(response.json()).toMatchObject({ status: false, code });
  expect(typeof response.json().ErrorMessage).toBe('string');
}

const count = async (sql: string) =>
  (await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`)).rows[0]!.n;

describe('NUL characters', () => {
  it('in the sign-in username or password: 40000, nothing logged', async () => {
    const before = await count('auth_log');
    for (const payload of [
      { username: `de${NUL}mo`, password: 'demo1234' },
      { username: 'demo', password: `demo${NUL}1234` },
    ]) {
      expectCoded(await t.app.inject({ method: 'POST', url: '/api/login', payload }));
    }
    expect(await count('auth_log')).toBe(before);
  });

  it('in settings values, keys or shortcuts: 40000, settings unchanged', async () => {
    const settingsOf = async () =>
      (await t.ctx.db.query("SELECT settings, shortcuts FROM players WHERE username = 'demo'")).rows[0];
    const before = await settingsOf();
    for (const user of [
      { settings: { theme: `dark${NUL}` } },
      { settings: { [`th${NUL}eme`]: 'dark1' } },
      { settings: { layout: { nested: [`x${NUL}`] } } },
      { shortcuts: [`lobby${NUL}`] },
      { settings: { theme: 'dark1' }, shortcuts: ['\uD800'] },
    ]) {
      expectCoded(await inject('POST', '/api/auth/user/update', { user }));
    }
    expect(await settingsOf()).toEqual(before);
  });

  it('in the chat mood (and the other chat fields): 40000, profile unchanged', async () => {
    const before = await count('chat_profiles');
    expectCoded(await inject('POST', '/api/chat/user/data', { mood: `hi${NUL}` }));
    expectCoded(await inject('POST', '/api/chat/user/data', { status: 'away', name: `x${NUL}` }));
    expect(await count('chat_profiles')).toBe(before);
    const sent = await count('chat_messages');
    expectCoded(
      await inject('POST', '/api/chat/send-message', {
        chatId: '1-support',
        contactId: 'support',
        messageText: `a${NUL}`,
      }),
    );
    expect(await count('chat_messages')).toBe(sent);
  });

  it('in the history search and the chat contactId: 40000', async () => {
    for (const url of [
      '/api/player/slot-sessions?search=%00',
      '/api/player/transactions?search=a%00b',
      '/api/player/transactions?cursor=%00',
      '/api/player/slot-sessions.csv?search=%00',
      '/api/player/transactions.csv?search=%00',
      '/api/chat/get-chat?contactId=%00',
      '/api/chat/get-chat?contactId=support&userId=%00',
    ]) {
      expectCoded(await inject('GET', url));
    }
  });

  it('in an idempotency key: 40000 and no money moves', async () => {
    const operations = await count('ledger_operations');
    expectCoded(await inject('GET', '/api/player/discount', undefined, { 'idempotency-key': `k${NUL}1` }));
    expect(await count('ledger_operations')).toBe(operations);
    // Over a real socket Node's HTTP parser refuses the header itself: a coded 400 all the same.
    const raw = await rawRequest(port, {
      method: 'GET',
      path: '/api/player/discount',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': `k${NUL}2` },
    });
    expect(raw.status).toBe(400);
    expect(JSON.parse(raw.body)).toMatchObject({ status: false, code: Code.InvalidRequest });
    expect(await count('ledger_operations')).toBe(operations);
  });
});

describe('deep nesting and large numbers', () => {
  it('settings nested deeper than 32 levels: 40000', async () => {
    for (const depth of [40, 5_000]) {
      const nested = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
      expectCoded(await inject('POST', '/api/auth/user/update', `{"user":{"settings":{"deep":${nested}}}}`));
    }
    // Up to the limit is fine.
    const ok = await inject(
      'POST',
      '/api/auth/user/update',
      `{"user":{"settings":{"deep":${'['.repeat(20)}1${']'.repeat(20)}}}}`,
    );
    expect(ok.statusCode).toBe(200);
  });

  it('ids past the int4 range: 40000 on REST', async () => {
    expectCoded(await inject('GET', `/api/machine/${INT4_MAX + 1}`));
    expectCoded(await inject('POST', '/api/player/kick', { machineId: INT4_MAX + 1 }));
    expectCoded(await inject('POST', '/api/player/cancel', { machineId: 1e300 }));
    expectCoded(
      await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: 'demo', password: 'demo1234', site_id: 2 ** 31 },
      }),
    );
  });

  it('the net under validation: database input errors are 40000, others are not', () => {
    for (const code of ['22P05', '22021', '22003', '22P02', '54001']) {
      expect(databaseInputError(Object.assign(new Error('x'), { code }))?.code).toBe(Code.InvalidRequest);
    }
    for (const error of [
      Object.assign(new Error('x'), { code: '23505' }),
      new Error('plain'),
      null,
      { code: 'ECONNRESET' },
    ]) {
      expect(databaseInputError(error)).toBeUndefined();
    }
  });
});

describe('the HTTP layer', () => {
  it('a CSV export with search=%00 is a clean coded 400, a good one a whole CSV', async () => {
    const headers = { authorization: `Bearer ${token}` };
    for (const path of [
      '/api/player/transactions.csv?search=%00',
      '/api/player/slot-sessions.csv?search=%00',
    ]) {
      const bad = await rawRequest(port, { method: 'GET', path, headers });
      expect(bad.error).toBeUndefined();
      expect(bad.complete).toBe(true);
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.body)).toMatchObject({ status: false, code: Code.InvalidRequest });
    }
    const good = await rawRequest(port, {
      method: 'GET',
      path: '/api/player/transactions.csv?search=Deposit',
      headers,
    });
    expect(good.error).toBeUndefined();
    expect(good.status).toBe(200);
    expect(good.complete).toBe(true);
    expect(good.body).toMatch(/^\uFEFFOperation Date,/);
  });

  it('an oversized URL answers 431 with code 41300 in JSON', async () => {
    const response = await rawRequest(port, {
      method: 'GET',
      path: `/api/player/balance?pad=${'a'.repeat(20_000)}`,
    });
    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(response.body)).toMatchObject({
      status: false,
      code: Code.RequestTooLarge,
      ErrorMessage: 'Request is too large',
    });
  });

  it('a malformed request line or a URL that is not valid percent-encoding answers a coded 400', async () => {
    const broken = await rawRequest(port, { method: 'GET', path: '/check\u0000x' });
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body)).toMatchObject({ code: Code.InvalidRequest });
    const badEncoding = await rawRequest(port, {
      method: 'GET',
      path: '/api/machine/%E0%A4%A',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(badEncoding.status).toBe(400);
    expect(JSON.parse(badEncoding.body)).toMatchObject({ code: Code.InvalidRequest });
    const longParam = await rawRequest(port, {
      method: 'GET',
      path: `/api/machine/${'9'.repeat(200)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(longParam.status).toBe(414);
    expect(JSON.parse(longParam.body)).toMatchObject({ code: Code.RequestTooLarge });
    // The server is still there.
    expect((await rawRequest(port, { method: 'GET', path: '/check' })).status).toBe(200);
  });
});

describe('the notification channel', () => {
  it('ignores junk frames (a `null` frame used to crash the whole process) and still signs in', async () => {
    const socket = await TestSocket.open(`ws://127.0.0.1:${port}/ws/notifications`);
    for (const junk of [
      'null',
      '[]',
      '"init"',
      '7',
      '{"event":"init","data":null}',
      '{"event":"init","data":{"token":"a\\u0000"}}',
      '{',
    ]) {
      socket.send(junk);
    }
    const hello = await socket.request({ event: 'init', data: { token, protocol: 1 } }, 'hello');
    expect(hello.data.protocol).toBe(1);
    expect((await rawRequest(port, { method: 'GET', path: '/check' })).status).toBe(200);
    await socket.close();
  });
});

describe('the game channel', () => {
  const url = () => `ws://127.0.0.1:${port}/ws/game`;

  it('closes a socket that never sends init, with 4003', async () => {
    const started = Date.now();
    const socket = await TestSocket.open(url());
    const closed = await socket.closed;
    expect(closed).toEqual({ code: WsCloseCode.InitTimeout, reason: 'init timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(INIT_TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(INIT_TIMEOUT_MS + 2_000);
  });

  it('machineID past the int4 range: a coded, fatal 40000 and a closed socket', async () => {
    for (const machineID of [INT4_MAX + 1, 1e300, -1]) {
      const socket = await TestSocket.open(url());
      const error = await socket.request({ event: 'init', data: { machineID, token, protocol: 1 } }, 'error');
      expect(error.data).toMatchObject({ code: Code.InvalidRequest, fatal: true });
      expect((await socket.closed).code).toBe(WsCloseCode.JoinFailed);
    }
  });

  it('an unknown band id and a NUL in an idempotency key: 40000, the session goes on, no money moves', async () => {
    const socket = await TestSocket.open(url());
    const joined = await socket.request(
      { event: 'init', data: { machineID: machineId, token, protocol: 1 } },
      'joined',
    );
    expect(joined.data.machineId).toBe(machineId);
    const operations = await count('ledger_operations');

    const band = await socket.request({ event: 'band', data: { bandId: 'no-such-band' } }, 'error');
    expect(band.data).toMatchObject({ code: Code.InvalidRequest, fatal: false });
    const nulBand = await socket.request({ event: 'band', data: { bandId: `high${NUL}` } }, 'error');
    expect(nulBand.data).toMatchObject({ code: Code.InvalidRequest, fatal: false });
    const cashin = await socket.request(
      { event: 'cashin', data: { amountCents: 500, idempotencyKey: `key${NUL}` } },
      'error',
    );
    expect(cashin.data).toMatchObject({ code: Code.InvalidRequest, fatal: false });
    const huge = await socket.request(
      { event: 'cashin', data: { amountCents: 2 ** 64, idempotencyKey: 'k' } },
      'error',
    );
    expect(huge.data).toMatchObject({ code: Code.InvalidRequest, fatal: false });
    const bet = await socket.request(
      { event: 'bet', data: { commandId: 'c1', level: INT4_MAX + 1 } },
      'error',
    );
    expect(bet.data).toMatchObject({ code: Code.InvalidRequest, fatal: false });
    expect(await count('ledger_operations')).toBe(operations);

    // A known band is fine, and the socket is still open.
    const errorsBefore = socket.messages.filter((m) => m.event === 'error').length;
    socket.send({ event: 'band', data: { bandId: 'low' } });
    await socket.request({ event: 'ping', data: {} }, 'info');
    expect(socket.messages.filter((m) => m.event === 'error').length).toBe(errorsBefore);
    await socket.request({ event: 'leave', data: {} }, 'closed').catch(() => undefined);
    await socket.close();
  });
});
