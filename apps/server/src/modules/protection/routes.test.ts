/** `GET`/`PUT /api/player/limits` and `POST /api/player/limits/confirm` over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, type LimitsResponse } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('bobby', 'bobby1234');
});
afterAll(() => t.close());

const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({ method, url: `/api${url}`, headers: t.auth(token), ...(payload ? { payload } : {}) });

describe('the limits routes', () => {
  it('lists every limit, sets a stricter one at once and keeps a raise waiting', async () => {
    const empty = (await call('GET', '/player/limits')).json<LimitsResponse>();
    expect(empty.limits.map((l) => l.key)).toEqual(['deposit_day', 'deposit_week', 'deposit_month', 'loss_day', 'loss_week', 'loss_month', 'session_minutes']);
    expect(empty.limits.every((l) => l.value === null && l.pending === null)).toBe(true);
    expect(empty.increaseDelayH).toBe(24);

    const set = await call('PUT', '/player/limits', { limits: [{ key: 'loss_month', value: 50_000 }, { key: 'session_minutes', value: 90 }] });
    expect(set.statusCode).toBe(200);
    expect(set.json<LimitsResponse>().limits.find((l) => l.key === 'loss_month')).toMatchObject({ value: 50_000, used: 0, pending: null });

    const raised = (await call('PUT', '/player/limits', { limits: [{ key: 'loss_month', value: 90_000 }] })).json<LimitsResponse>();
    expect(raised.limits.find((l) => l.key === 'loss_month')).toMatchObject({ value: 50_000, pending: { value: 90_000 } });

    const early = await call('POST', '/player/limits/confirm', { key: 'loss_month' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ status: false, code: Code.LimitRaiseNotDue, Params: { limit_key: 'loss_month' } });
  });

  it('refuses bad input with 40000 and no write, and anyone signed out with 401', async () => {
    for (const limits of [[{ key: 'loss_year', value: 1 }], [{ key: 'loss_day', value: 0 }], [{ key: 'loss_day', value: 1.5 }], [], [{ key: 'loss_day', value: 5 }, { key: 'loss_day', value: 6 }]]) {
      const response = await call('PUT', '/player/limits', { limits });
      expect(response.statusCode, JSON.stringify(limits)).toBe(400);
      expect(response.json().code).toBe(Code.InvalidRequest);
    }
    expect((await call('GET', '/player/limits')).json<LimitsResponse>().limits.find((l) => l.key === 'loss_day')!.value).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/api/player/limits' })).statusCode).toBe(401);
  });
});
