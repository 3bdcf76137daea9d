/**
 * A headless cabinet (`--no-video`, the floor bench's machines): a real simulated machine and agent
 * client with no stream on the real server and PostgreSQL. It must play exactly as a machine with
 * video (the game, the records, the meters), and its player is told that there is no video with a
 * catalogue code instead of a fault: the cabinet stays playable and the lobby shows it as usual.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, type BrandWithMachines } from '@reel/protocol';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { FakeConnection } from '../../../test/game-connection.js';
import { SlotMachine } from '../../../../cabinet/src/game/machine.js';
import { AgentClient } from '../../../../cabinet/src/agent/agent-client.js';
import { auditLedger } from '../ledger/ledger.js';
import { auditPlayers } from '../ledger/player-audit.js';

const FAST = { spinDurationMs: 5, reelStaggerMs: 1, autoplayGapMs: 2, cashOutDurationMs: 2 };
const SPINS = 12;

let t: TestApp;
let machine: SlotMachine;
let agent: AgentClient;
let machineId: number;
let demo: number;

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const agentUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws/agent`;
  const keys = JSON.parse(fs.readFileSync(path.join(t.ctx.config.dataDir, 'machine-keys.json'), 'utf8')) as Record<string, string>;
  machineId = (await t.ctx.db.query<{ id: number }>('SELECT id FROM machines WHERE NOT reservation ORDER BY id LIMIT 1')).rows[0]!.id;
  demo = (await t.ctx.db.query<{ id: number }>("SELECT id FROM players WHERE username = 'demo'")).rows[0]!.id;
  machine = new SlotMachine({ machineId, timing: FAST });
  agent = new AgentClient({
    url: agentUrl,
    agentId: 'headless-test',
    machines: [{ machine, key: keys[String(machineId)]!, stream: null, videoType: 'screen', bands: [], headless: true }],
  });
  agent.start();
  await until(() => t.ctx.sessions.machineView(machineId).cabinetState === 'idle', 'the headless cabinet idle on the server');
  await t.ctx.sessions.drain();
});

afterAll(async () => {
  await agent?.stop();
  machine?.dispose();
  await t?.close();
});

const lobbyStatus = async () => {
  const groups = (await t.app.inject({ method: 'GET', url: '/api/machine/all', headers: t.auth(await t.login()) })).json<BrandWithMachines[]>();
  return groups.flatMap((g) => g.machines).find((m) => m.id === machineId)!.status;
};

describe('a headless machine', () => {
  it('is available in the lobby, tells its player there is no video (70001) without a fault, plays, and its meters match the records', async () => {
    expect(await lobbyStatus()).toBe('available');
    const conn = new FakeConnection();
    await t.ctx.sessions.join(demo, machineId, conn);
    const joined = conn.last('joined');
    expect(joined.machine).toMatchObject({ cabinetState: 'idle', videoError: Code.MachineWithoutVideo });
    expect(joined.stream).toBeNull();
    const sessionId = joined.session.sessionId as string;

    await t.ctx.sessions.cashIn(demo, 2_000, 'headless-cash-in');
    for (let i = 0; i < SPINS; i++) {
      await t.ctx.sessions.spin(demo, `headless-${i}`);
      // Free spins won on the way are played by the same command: wait for the machine to rest.
      await until(() => machine.state === 'idle', 'the game to end');
    }
    await until(() => conn.all('cycle').length >= SPINS, 'every spin result at the player');
    expect(conn.all('machine').every((view: { cabinetState: string }) => view.cabinetState !== 'error')).toBe(true);
    await t.ctx.sessions.cashOut(demo);
    await t.ctx.sessions.leave(demo);
    await t.ctx.sessions.drain();

    const { rows } = await t.ctx.db.query<{ games: number; bets: string; wins: string; cash_in: string; cash_out: string; status: string; malfunction: string | null }>(
      `SELECT (SELECT count(*)::int FROM game_cycles WHERE machine_id = $1) AS games,
              (SELECT coalesce(sum(bet_cents), 0) FROM game_cycles WHERE machine_id = $1) AS bets,
              (SELECT coalesce(sum(win_cents), 0) FROM game_cycles WHERE machine_id = $1) AS wins,
              s.cash_in_cents AS cash_in, s.cash_out_cents AS cash_out, s.status, s.malfunction
         FROM slot_sessions s WHERE s.id = $2`,
      [machineId, sessionId],
    );
    const records = rows[0]!;
    expect(records).toMatchObject({ status: 'closed', malfunction: null });
    const meters = machine.meters;
    expect(meters.gamesPlayed + meters.freeGamesPlayed).toBe(records.games);
    expect(meters.coinInCents).toBe(Number(records.bets));
    expect(meters.coinOutCents).toBe(Number(records.wins));
    expect(meters.cashInCents).toBe(Number(records.cash_in));
    expect(meters.cashOutCents).toBe(Number(records.cash_out));
    expect(meters.creditsCents).toBe(0);
    expect(meters.cashInCents - meters.cashOutCents).toBe(meters.coinInCents - meters.coinOutCents);
    expect((await auditLedger(t.ctx.db)).ok).toBe(true);
    expect((await auditPlayers(t.ctx.db)).ok).toBe(true);
    expect(await lobbyStatus()).toBe('available');
  });
});
