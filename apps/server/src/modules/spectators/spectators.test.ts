/**
 * Spectators over the real watch channel, a real simulated cabinet on the agent channel and the
 * session manager on the test database: bobby plays machine 1, demo and alice watch it.
 * The video side is a double that signs real grants (the media process is off in API tests), so the
 * grants a spectator gets can be checked: `role: 'watch'`, never a player's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ActionCode, Code, WsPath, type StreamGrant } from '@reel/protocol';
import { signGrant, verifyGrant } from '@reel/media-control';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { checkSent } from '../../../test/protocol-drift.js';
import { SlotMachine } from '../../../../cabinet/src/game/machine.js';
import { AgentClient } from '../../../../cabinet/src/agent/agent-client.js';
import { OperationKind } from '../ledger/ledger.js';
import { transfer } from '../ledger/ledger-service.js';
import { Spectators } from './spectators.js';

const SECRET = 'watch-test-secret';
const MAX = 2;
let t: TestApp;
let origin: string;
let agent: AgentClient;
let machine: SlotMachine;
const grantsIssued: StreamGrant[] = [];

const until = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A socket on `channel` that records what it gets (checked against the protocol). */
function open(channel: string, query: string) {
  const socket = new WebSocket(`${origin}${channel}?${query}`);
  const received: { event: string; data: any }[] = [];
  let closeCode: number | null = null;
  socket.on('message', (raw) => {
    const m = JSON.parse(String(raw));
    checkSent(channel, m.event, m.data);
    received.push(m);
  });
  socket.on('close', (code) => (closeCode = code));
  const opened = new Promise<void>((resolve) => socket.on('open', () => resolve()));
  return { socket, received, opened, closeCode: () => closeCode, send: (m: unknown) => socket.send(JSON.stringify(m)) };
}

beforeAll(async () => {
  t = await createTestApp(
    (config) => (config.spectators.maxWatchersPerMachine = MAX),
    (ctx) => {
      ctx.spectators?.close();
      ctx.spectators = new Spectators({
        db: ctx.db,
        bus: ctx.bus,
        serverId: 'test',
        maxWatchersPerMachine: MAX,
        hotLimitCents: () => 20_000,
        video: {
          async watchGrant(playerId, machineId) {
            const { token, claims } = signGrant(SECRET, { playerId, machineId, ttlMs: 20_000, role: 'watch' });
            const grant = { grant: token, expiresAt: new Date(claims.exp).toISOString(), whepUrl: `/api/media/whep/${machineId}`, iceServers: [] };
            grantsIssued.push(grant);
            return grant;
          },
        },
      });
    },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as { port: number }).port;
  origin = `ws://127.0.0.1:${port}`;
  const keys = JSON.parse(fs.readFileSync(path.join(t.ctx.config.dataDir, 'machine-keys.json'), 'utf8')) as Record<string, string>;
  machine = new SlotMachine({ machineId: 1, timing: { spinDurationMs: 5, reelStaggerMs: 1, autoplayGapMs: 2, cashOutDurationMs: 2 } });
  agent = new AgentClient({
    url: `${origin}/ws/agent`,
    agentId: 'test',
    machines: [{ machine, key: keys['1']!, stream: null, videoType: 'screen', bands: [] }],
  });
  agent.start();
  await until(() => t.ctx.sessions.machineView(1).cabinetState === 'idle', 'the cabinet');
});
afterAll(async () => {
  await agent?.stop();
  machine?.dispose();
  await t.close();
});

describe('spectators', () => {
  it('watch a played machine: a watch-only grant, the public play, counts for the player, the limit, and no command ever passes', async () => {
    const nothing = open(WsPath.watch, `token=${await t.login()}&machineId=1`);
    await until(() => nothing.closeCode() !== null, 'a refusal while nobody plays');
    expect(nothing.received[0]).toMatchObject({ event: 'error', data: { code: Code.NothingToWatch, fatal: true } });

    // bobby plays machine 1 with credits on it; his notification socket is where he sees the count.
    const bobToken = await t.login('bobby', 'bobby1234');
    const bob = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'bobby'")).rows[0]!.id;
    await transfer(t.ctx, {
      kind: OperationKind.Deposit,
      actionCode: ActionCode.Deposit,
      playerId: bob,
      from: { kind: 'cashier' },
      to: { kind: 'wallet', playerId: bob },
      amountCents: 100_000,
    });
    const bobLobby = open(WsPath.notifications, `token=${bobToken}`);
    const game = open(WsPath.game, '');
    await game.opened;
    game.send({ event: 'init', data: { machineID: 1, token: bobToken, protocol: 1 } });
    await until(() => game.received.some((m) => m.event === 'joined'), 'bobby joined');
    game.send({ event: 'cashin', data: { amountCents: 10_000, idempotencyKey: 'watch-1' } });
    await until(() => game.received.some((m) => m.event === 'cashedIn'), 'cashed in');

    const demoToken = await t.login();
    const demo = open(WsPath.watch, `token=${demoToken}&machineId=1`);
    await until(() => demo.received.some((m) => m.event === 'watching'), 'demo watching');
    const watching = demo.received.find((m) => m.event === 'watching')!.data;
    expect(watching).toMatchObject({ machineId: 1, watchers: 1 });
    // The spectator's grant can only watch: role 'watch', checked as the media process checks it.
    const check = verifyGrant(SECRET, watching.stream.grant, { machineId: 1 });
    expect(check.ok && check.claims.role).toBe('watch');
    await until(() => bobLobby.received.some((m) => m.event === 'watchers' && m.data.id === 1 && m.data.count === 1), 'bobby sees 1 watcher');

    // A spectator cannot play: every game command on the watch channel is refused with 40307 ...
    const cyclesBefore = Number((await t.ctx.db.query('SELECT count(*) FROM game_cycles WHERE machine_id = 1')).rows[0].count);
    for (const event of ['spin', 'bet', 'cashin', 'cashout', 'autoplay', 'init', 'leave'])
      demo.send({ event, data: { commandId: `c-${event}`, level: 1, amountCents: 100, idempotencyKey: 'x', on: true, machineID: 1, token: demoToken } });
    await until(() => demo.received.filter((m) => m.event === 'error').length === 7, 'seven refusals');
    expect(new Set(demo.received.filter((m) => m.event === 'error').map((m) => m.data.code))).toEqual(new Set([Code.SpectatorCannotPlay]));
    // ... a fresh grant asked for is a spectator's again, never a play grant ...
    demo.send({ event: 'stream', data: {} });
    await until(() => demo.received.some((m) => m.event === 'stream'), 'a fresh grant');
    const fresh = verifyGrant(SECRET, demo.received.find((m) => m.event === 'stream')!.data.grant, { machineId: 1 });
    expect(fresh.ok && fresh.claims.role).toBe('watch');
    expect(grantsIssued.every((g) => { const c = verifyGrant(SECRET, g.grant, { machineId: 1 }); return c.ok && c.claims.role === 'watch'; })).toBe(true);
    // ... the grant is no player token: the game channel refuses it ...
    const withGrant = open(WsPath.game, '');
    await withGrant.opened;
    withGrant.send({ event: 'init', data: { machineID: 1, token: watching.stream.grant, protocol: 1 } });
    await until(() => withGrant.closeCode() !== null, 'the game channel refusing a watch grant');
    expect(withGrant.received[0]).toMatchObject({ event: 'error', data: { fatal: true } });
    expect([Code.InvalidAccessToken, Code.SignatureNotVerified]).toContain(withGrant.received[0]!.data.code);
    // ... and the spectator's own sign-in does not get the machine (nor its play grant) while bobby holds it.
    const demoGame = open(WsPath.game, '');
    await demoGame.opened;
    demoGame.send({ event: 'init', data: { machineID: 1, token: demoToken, protocol: 1 } });
    await until(() => demoGame.closeCode() !== null, 'the join refused');
    expect(demoGame.received.map((m) => m.event)).not.toContain('joined');
    expect(demoGame.received[0]).toMatchObject({ event: 'error', data: { code: Code.MachineBusy } });
    // Nothing reached the machine.
    expect(Number((await t.ctx.db.query('SELECT count(*) FROM game_cycles WHERE machine_id = 1')).rows[0].count)).toBe(cyclesBefore);

    // The player spins: the spectator sees the game, without credits or anyone's name.
    game.send({ event: 'spin', data: { commandId: 'spin-1' } });
    await until(() => demo.received.some((m) => m.event === 'play'), 'the public play');
    const play = demo.received.find((m) => m.event === 'play')!.data;
    expect(Object.keys(play).sort()).toEqual(['at', 'betCents', 'freeSpin', 'gameId', 'jackpotHit', 'machineId', 'winCents']);
    expect(JSON.stringify(demo.received)).not.toMatch(/bobby|creditsAfter|balance/);

    // The limit: a second spectator fits, the third is refused with 40935 and the limit.
    const alice = open(WsPath.watch, `token=${await t.login('alice', 'alice1234')}&machineId=1`);
    await until(() => alice.received.some((m) => m.event === 'watching'), 'alice watching');
    await until(() => demo.received.some((m) => m.event === 'watchers' && m.data.count === 2), 'demo sees 2 watchers');
    const third = open(WsPath.watch, `token=${demoToken}&machineId=1`);
    await until(() => third.closeCode() !== null, 'the third refused');
    expect(third.received[0]).toMatchObject({ event: 'error', data: { code: Code.WatchersFull, Params: { max: MAX }, fatal: true } });
    expect(third.closeCode()).toBe(4002);

    // Leaving gives the places back; the player's last count is 0 (the final state is delivered).
    alice.socket.close();
    demo.socket.close();
    await until(() => t.ctx.spectators!.counts.total(1) === 0, 'the places given back');
    await until(() => {
      const counts = bobLobby.received.filter((m) => m.event === 'watchers' && m.data.id === 1);
      return counts.at(-1)?.data.count === 0;
    }, "bobby's count back to 0");

    game.send({ event: 'leave', data: {} });
    await until(() => game.received.some((m) => m.event === 'closed'), 'bobby left');
    for (const s of [game, bobLobby, withGrant, demoGame]) s.socket.close();
  });
});
