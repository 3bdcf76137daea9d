/**
 * Breaks (issue 28): a cool-off or self-exclusion cashes the player out and signs them out at once
 * (sockets closed, tokens revoked), every sign-in channel is refused with a code that says until
 * when, it ends exactly at its end and not a millisecond sooner, the player cannot shorten it, and
 * only an admin ends a self-exclusion early, with a reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakEnd, Code, PROTOCOL_VERSION, type BreakResponse } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { FakeCabinets } from '../../../test/doubles/fake-cabinets.js';
import { TestSocket } from '../../../test/ws-client.js';
import { withTransaction } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { signedInPlayer } from '../auth/login.js';
import { machineCredits, walletBalance } from '../ledger/ledger.js';
import { SessionManager } from '../sessions/session-manager.js';
import { PlayerBreaks } from './player-breaks.js';

let t: TestApp;
let base: string;
let machineId: number;
const cabinets = new FakeCabinets();

beforeAll(async () => {
  t = await createTestApp(undefined, async (ctx) => {
    ctx.sessions = new SessionManager(ctx, cabinets, { grant: async () => null }, ctx.config.sessions);
    await ctx.sessions.start();
    machineId = (await ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1')).rows[0]!.id;
    cabinets.connect(machineId);
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(() => t.close());

const playerId = async (username: string) => (await t.ctx.db.query<{ id: number }>('SELECT id FROM players WHERE username = $1', [username])).rows[0]!.id;
const post = (url: string, token: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/api${url}`, headers: t.auth(token), payload });

async function refusalOf(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('taking a break', () => {
  it('a cool-off cashes the credits out to the wallet, closes the sockets and revokes the token', async () => {
    const token = await t.login('alice', 'alice1234');
    const alice = await playerId('alice');
    const game = await TestSocket.open(`${base}/ws/game?token=${encodeURIComponent(token)}`);
    game.send({ event: 'init', data: { machineID: machineId, token, protocol: PROTOCOL_VERSION } });
    await game.next('joined');
    const walletBefore = (await walletBalance(t.ctx.db, alice)).balance;
    game.send({ event: 'cashin', data: { amountCents: 2_000, idempotencyKey: 'before-break' } });
    await game.next('cashedIn');
    const notifications = await TestSocket.open(`${base}/ws/notifications?token=${encodeURIComponent(token)}`);
    await notifications.next('hello');

    const before = Date.now();
    const answer = await post('/player/break', token, { period: 'cool_off_24h' });
    expect(answer.statusCode).toBe(200);
    const taken = answer.json<BreakResponse>().break;
    expect(taken).toMatchObject({ kind: 'cool_off', period: 'cool_off_24h' });
    expect(new Date(taken.endsAt).getTime() - new Date(taken.startsAt).getTime()).toBe(24 * 3_600_000);
    expect(new Date(taken.startsAt).getTime()).toBeGreaterThanOrEqual(before - 1_000);

    expect((await game.closed).code).toBeGreaterThan(0);
    expect((await notifications.next('logout')).data).toEqual({ code: Code.CoolingOff, Params: { until: taken.endsAt } });
    expect((await notifications.closed).code).toBeGreaterThan(0);
    expect(await machineCredits(t.ctx.db, machineId)).toBe(0);
    expect((await walletBalance(t.ctx.db, alice)).balance).toBe(walletBefore);
    const open = await t.ctx.db.query("SELECT 1 FROM slot_sessions WHERE player_id = $1 AND status <> 'closed'", [alice]);
    expect(open.rowCount).toBe(0);

    const refused = await t.app.inject({ method: 'GET', url: '/api/player/balance', headers: t.auth(token) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: Code.CoolingOff, Params: { until: taken.endsAt } });
  });

  it('a self-excluded player cannot sign in on any channel: password, token check, game and notification sockets', async () => {
    const token = await t.login('bobby', 'bobby1234');
    const bobby = await playerId('bobby');
    const taken = (await post('/player/break', token, { period: 'self_exclusion_6m' })).json<BreakResponse>().break;
    expect(taken.kind).toBe('self_exclusion');
    const refusal = { code: Code.SelfExcluded, Params: { until: taken.endsAt } };

    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'bobby', password: 'bobby1234' } });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toMatchObject(refusal);

    // A token that was never revoked (issued behind the break's back) is refused all the same.
    const { token: fresh } = await t.ctx.tokens.issue(await signedInPlayer(t.ctx.db, bobby), '127.0.0.1');
    const validate = await t.app.inject({ method: 'GET', url: '/api/validate', headers: t.auth(fresh) });
    expect(validate.statusCode).toBe(403);
    expect(validate.json()).toMatchObject(refusal);

    const game = await TestSocket.open(`${base}/ws/game?token=${encodeURIComponent(fresh)}`);
    game.send({ event: 'init', data: { machineID: machineId, token: fresh, protocol: PROTOCOL_VERSION } });
    expect((await game.next('error')).data).toMatchObject({ code: Code.SelfExcluded, Params: { until: taken.endsAt } });
    await game.closed;

    const notifications = await TestSocket.open(`${base}/ws/notifications?token=${encodeURIComponent(fresh)}`);
    expect((await notifications.next('logout')).data).toMatchObject({ code: Code.SelfExcluded });
    await notifications.closed;

    // The player cannot take a shorter (or any other) break over it.
    expect((await refusalOf(t.ctx.protection.breaks.take(bobby, 'cool_off_24h'))).code).toBe(Code.SelfExcluded);
  });
});

describe('the end of a break', () => {
  it('ends exactly at its end: 1 ms before it sign-in is refused, at it allowed', async () => {
    const demo = await playerId('demo');
    let nowMs = Date.UTC(2031, 0, 31, 12);
    const breaks = new PlayerBreaks({ db: t.ctx.db, now: () => nowMs });
    const taken = await breaks.take(demo, 'cool_off_1m');
    // A month from 31 January is the last day of February.
    expect(taken.endsAt).toBe(new Date(Date.UTC(2031, 1, 28, 12)).toISOString());
    nowMs = Date.UTC(2031, 1, 28, 12) - 1;
    expect((await breaks.refusal(demo))?.code).toBe(Code.CoolingOff);
    nowMs = Date.UTC(2031, 1, 28, 12);
    expect(await breaks.refusal(demo)).toBeNull();
  });

  it('only a self-exclusion is ended early, by an admin, with a reason that staff can read', async () => {
    const bobby = await playerId('bobby');
    const admin = { id: (await t.ctx.db.query<{ id: number }>("SELECT id FROM operators WHERE username = 'admin'")).rows[0]!.id, username: 'admin' };
    const breaks = t.ctx.protection.breaks;
    const end = (player: number, reason: string) => withTransaction(t.ctx.db, (tx) => breaks.endSelfExclusionEarly(tx, player, { admin, reason }));
    expect((await refusalOf(end(bobby, '  '))).code).toBe(Code.ReasonRequired);
    const { before, after } = await end(bobby, 'court order 17/2026');
    expect(before).toMatchObject({ kind: 'self_exclusion', active: true, endedEarlyAt: null });
    expect(after).toMatchObject({ id: before.id, active: false, endedBy: 'admin', endReason: 'court order 17/2026' });
    expect(await breaks.refusal(bobby)).toBeNull();
    const [latest] = await breaks.history(bobby);
    expect(latest).toEqual(after);
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'bobby', password: 'bobby1234' } })).statusCode).toBe(200);

    // A cool-off is not ended early.
    const alice = await playerId('alice');
    expect((await refusalOf(end(alice, 'asked nicely'))).code).toBe(Code.NotFound);
    expect((await breaks.refusal(alice))?.code).toBe(Code.CoolingOff);
  });

  it('the self-exclusion lengths: 6 months, 1 year and 5 years to the calendar day', () => {
    const start = Date.UTC(2030, 5, 15, 8, 30);
    expect(breakEnd('self_exclusion_6m', start).toISOString()).toBe(new Date(Date.UTC(2030, 11, 15, 8, 30)).toISOString());
    expect(breakEnd('self_exclusion_1y', start).toISOString()).toBe(new Date(Date.UTC(2031, 5, 15, 8, 30)).toISOString());
    expect(breakEnd('self_exclusion_5y', start).toISOString()).toBe(new Date(Date.UTC(2035, 5, 15, 8, 30)).toISOString());
    expect(breakEnd("cool_off_7d", start).getTime() - start).toBe(7 * 86_400_000);
  });
});
