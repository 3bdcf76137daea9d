/** The game recall: a session's last 10 games from the records, the player's own only, and the CSV of all. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, type GameRecallResponse } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { FakeCabinets } from '../../../test/doubles/fake-cabinets.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { SessionManager } from '../sessions/session-manager.js';

let t: TestApp;
const cabinets = new FakeCabinets();
let sessions: SessionManager;

beforeAll(async () => {
  t = await createTestApp(undefined, async (ctx) => {
    sessions = new SessionManager(ctx, cabinets, { grant: async () => null }, ctx.config.sessions);
    ctx.sessions = sessions;
    await sessions.start();
  });
});
afterAll(() => t.close());

describe('the game recall', () => {
  it('answers the last 10 of 12 games newest first, as recorded; the CSV has all 12; another player gets 404', async () => {
    const demo = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'demo'")).rows[0]!.id;
    const machine = (await t.ctx.db.query<{ id: number }>('SELECT id FROM machines ORDER BY id LIMIT 1')).rows[0]!.id;
    cabinets.connect(machine);
    await sessions.drain();
    const conn = new FakeConnection();
    await sessions.join(demo, machine, conn);
    const sessionId = conn.last('joined').session.sessionId as string;
    await sessions.cashIn(demo, 2_000, 'recall-in');
    cabinets.nextWins = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 500];
    for (let i = 0; i < 12; i++) await sessions.spin(demo, `recall-${i}`);
    await sessions.drain();

    const token = await t.login();
    const answer = await t.app.inject({ method: 'GET', url: `/api/player/slot-sessions/${sessionId}/games`, headers: t.auth(token) });
    expect(answer.statusCode).toBe(200);
    const { games } = answer.json<GameRecallResponse>();
    expect(games).toHaveLength(10);
    expect(games[0]).toMatchObject({ betCents: 100, winCents: 500, creditsBeforeCents: 900, creditsAfterCents: 1_300, symbols: [['CHERRY']], freeSpin: false, jackpot: false, lineWins: [] });
    expect(games[9]).toMatchObject({ creditsBeforeCents: 1_800, creditsAfterCents: 1_700 });

    const csv = await t.app.inject({ method: 'GET', url: `/api/player/slot-sessions/${sessionId}/games.csv`, headers: t.auth(token) });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(13);
    expect(csv.body.startsWith('\uFEFF')).toBe(true);
    expect(lines[0]).toBe('Time,Bet,Symbols,Lines Won,Win,Credits Before,Credits After,Free Spin,Jackpot');
    expect(lines[12]).toMatch(/,1\.00,CHERRY,,5\.00,9\.00,13\.00,no,no$/);

    const other = await t.login('alice', 'alice1234');
    const refused = await t.app.inject({ method: 'GET', url: `/api/player/slot-sessions/${sessionId}/games`, headers: t.auth(other) });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe(Code.NotFound);
    await sessions.leave(demo);
  });
});
