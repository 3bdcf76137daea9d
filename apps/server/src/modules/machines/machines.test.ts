import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { deriveStatus } from './lobby.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.auth(token) });

describe('machine status', () => {
  it('derives the five lobby statuses', () => {
    const base = { enabled: true, cabinet_state: 'idle', session_status: null, reservation: false };
    expect(deriveStatus(base)).toBe('available');
    expect(deriveStatus({ ...base, reservation: true })).toBe('reserved');
    expect(deriveStatus({ ...base, session_status: 'active' })).toBe('playing');
    expect(deriveStatus({ ...base, session_status: 'disconnected' })).toBe('waiting');
    expect(deriveStatus({ ...base, cabinet_state: 'offline' })).toBe('not_available');
    // A cabinet whose video cannot start reports 'error' (see video-failure.test.ts).
    expect(deriveStatus({ ...base, cabinet_state: 'error' })).toBe('not_available');
    expect(deriveStatus({ ...base, enabled: false })).toBe('not_available');
  });
});

describe('machine routes', () => {
  it('lists brands with jackpots and machine counts', async () => {
    const brands = (await get('/api/machine/brands')).json();
    expect(brands).toHaveLength(3);
    expect(brands[0]).toEqual({ id: expect.any(Number), name: 'Golden Reels', image: null, jackpot: '250000,50000,10000', machineCount: 4 });
  });

  it('lists every machine grouped by brand, with statuses from the database', async () => {
    await t.ctx.db.query("UPDATE machines SET cabinet_state = 'idle'");
    const all = (await get('/api/machine/all')).json();
    expect(all).toHaveLength(3);
    const machines = all.flatMap((entry: { machines: unknown[] }) => entry.machines);
    expect(machines).toHaveLength(12);
    expect(machines.filter((m: { status: string }) => m.status === 'reserved')).toHaveLength(3);
    expect(machines[0]).toMatchObject({ status: 'available', brand: 'Golden Reels', videoType: 'screen', hot: false });
    expect(machines[0].bands.length).toBeGreaterThanOrEqual(2);
  });

  it('answers one brand for single-lobby mode and codes for bad ids', async () => {
    const one = (await get('/api/machine/all')).json()[1].brand.id;
    const entry = (await get(`/api/machine/${one}`)).json();
    expect(entry.brand.name).toBe('Lucky Sevens');
    expect(entry.machines).toHaveLength(4);
    expect((await get('/api/machine/99999')).json().code).toBe(Code.NotFound);
    expect((await get('/api/machine/abc')).json().code).toBe(Code.InvalidRequest);
    expect((await t.app.inject({ method: 'GET', url: '/api/machine/all' })).statusCode).toBe(401);
  });
});
