import { afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import type { AgentClientEvents, AgentMachineState, GameCycle } from '@reel/protocol';
import { AgentHub, agentHubPlugin } from './index.js';
import { SlotMachine } from '../../../../cabinet/src/game/machine.js';
import { AgentClient } from '../../../../cabinet/src/agent/agent-client.js';
import { Rng } from '../../../../cabinet/src/game/rng.js';
import { findStops, scripted } from '../../../../cabinet/src/game/test-doubles.js';

const KEYS = new Map([
  [11, 'key-eleven'],
  [12, 'key-twelve'],
]);
const verifyMachineKey = async (id: number, key: string) => KEYS.get(id) === key;
const FAST = { spinDurationMs: 10, reelStaggerMs: 2, autoplayGapMs: 5, cashOutDurationMs: 5 };

let app: FastifyInstance | null = null;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  await app?.close();
  app = null;
});

async function startServer(hub: AgentHub): Promise<string> {
  app = Fastify();
  await app.register(agentHubPlugin, { hub });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return address.replace('http', 'ws') + '/ws/agent';
}

const until = async (pred: () => boolean, timeoutMs = 3000) => {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('agent hub ↔ cabinet', () => {
  it('a cabinet connects, reports state, and plays credit/spin/cashout with the right meters', async () => {
    const hub = new AgentHub({ verifyMachineKey, commandTimeoutMs: 3000 });
    const url = await startServer(hub);
    const states: AgentClientEvents['state'][] = [];
    const cycles: GameCycle[] = [];
    let meters: AgentClientEvents['meters'] | null = null;
    hub.on('state', (s) => states.push(s));
    hub.on('cycle', (c) => cycles.push(c.cycle));
    hub.on('meters', (m) => (meters = m));

    const machine = new SlotMachine({ machineId: 11, timing: FAST });
    const agent = new AgentClient({
      url,
      agentId: 'test-agent',
      machines: [{ machine, key: 'key-eleven', stream: null, videoType: 'screen', bands: [] }],
    });
    cleanups.push(
      () => agent.stop(),
      () => machine.dispose(),
    );
    agent.start();
    await until(() => hub.isConnected(11));
    await until(() => states.some((s) => s.machineId === 11 && s.state === 'idle'));
    expect(hub.get(11)!.info.videoType).toBe('screen');

    const credit = await hub.sendCommand(11, { type: 'credit_in', amountCents: 2000 });
    expect(credit).toMatchObject({ outcome: 'ok', creditsCents: 2000 });
    await hub.sendCommand(11, { type: 'set_bet_level', level: 1 });
    const spin = await hub.sendCommand(11, { type: 'spin', commandId: 'spin-1' });
    expect(spin.outcome).toBe('ok');
    expect(spin.cycle!.betCents).toBe(40);
    // A retried spin (same id) replays the answer and does not play again.
    const again = await hub.sendCommand(11, { type: 'spin', commandId: 'spin-1' });
    expect(again.duplicate).toBe(true);
    expect(again.cycle!.gameId).toBe(spin.cycle!.gameId);
    await until(() => cycles.length >= 1 && hub.get(11)!.state === 'idle', 10_000);
    const played: AgentMachineState[] = states.map((s) => s.state);
    expect(played).toContain('in_game');

    const freeWins = cycles.filter((c) => c.freeSpin).reduce((a, c) => a + c.winCents, 0);
    const expectedCredits = 2000 - 40 + spin.cycle!.winCents + freeWins;
    const out = await hub.sendCommand(11, { type: 'cash_out' });
    expect(out).toMatchObject({ outcome: 'ok', amountCents: expectedCredits, creditsCents: 0 });
    await until(() => meters !== null && meters.meters.cashOutCents === expectedCredits);
    expect(meters!.meters).toMatchObject({
      creditsCents: 0,
      cashInCents: 2000,
      coinInCents: 40,
      coinOutCents: spin.cycle!.winCents + freeWins,
      gamesPlayed: 1,
    });
    expect(states.map((s) => s.state)).toContain('cashing_out');
  });

  it('refuses an unknown machine key and ignores its reports', async () => {
    const hub = new AgentHub({ verifyMachineKey });
    const url = await startServer(hub);
    const refused: number[] = [];
    hub.on('refused', (r) => refused.push(r.machineId));
    const good = new SlotMachine({ machineId: 12, timing: FAST });
    const bad = new SlotMachine({ machineId: 13, timing: FAST });
    const wrongKey = new SlotMachine({ machineId: 11, timing: FAST });
    const authResults = new Map<number, boolean>();
    const agent = new AgentClient({
      url,
      agentId: 'mixed',
      machines: [
        { machine: good, key: 'key-twelve', stream: null, videoType: 'screen', bands: [] },
        { machine: bad, key: 'whatever', stream: null, videoType: 'screen', bands: [] },
        { machine: wrongKey, key: 'key-twelve', stream: null, videoType: 'screen', bands: [] },
      ],
    });
    agent.on('auth', (id, ok) => authResults.set(id, ok));
    cleanups.push(
      () => agent.stop(),
      () => good.dispose(),
      () => bad.dispose(),
      () => wrongKey.dispose(),
    );
    agent.start();
    await until(() => authResults.size === 3);
    expect(Object.fromEntries(authResults)).toEqual({ 12: true, 13: false, 11: false });
    expect(hub.isConnected(12)).toBe(true);
    expect(hub.isConnected(13)).toBe(false);
    expect(hub.isConnected(11)).toBe(false);
    expect(refused.sort()).toEqual([11, 13]);
    await expect(hub.sendCommand(13, { type: 'spin' })).rejects.toMatchObject({ reason: 'not_connected' });

    // A raw client that skips auth cannot inject reports for a machine. (Machine 12's own agent may
    // still report meanwhile on a loaded machine: what must never appear is the intruder's report.)
    const states: string[] = [];
    hub.on('state', (s) => states.push(`${s.machineId}:${s.state}`));
    const raw = new WebSocket(url);
    cleanups.push(() => raw.terminate());
    await new Promise((r) => raw.once('open', r));
    // The hub handles a connection's messages in order, and answers text that is not JSON with an
    // error: that answer arrives after the report before it was dealt with.
    const answered = new Promise<void>((resolve) =>
      raw.on('message', (data) => JSON.parse(String(data)).event === 'error' && resolve()),
    );
    raw.send(JSON.stringify({ event: 'hello', data: { protocol: 1, agentId: 'intruder', software: 'x' } }));
    raw.send(
      JSON.stringify({
        event: 'state',
        data: { machineId: 12, state: 'malfunction', previous: 'idle', atMs: Date.now() },
      }),
    );
    raw.send('not json');
    await answered;
    expect(states).not.toContain('12:malfunction');
    expect(hub.get(12)!.state).toBe('idle');
  });

  it("a game stays in the cabinet's outbox, sent again while overdue, until the hub acknowledges it", async () => {
    const hub = new AgentHub({ verifyMachineKey });
    const url = await startServer(hub);
    const received: string[] = [];
    hub.on('cycle', (c) => received.push(c.cycle.gameId));
    const plain = findStops((ev) => ev.scatterCount === 0);
    const machine = new SlotMachine({ machineId: 11, timing: FAST, rng: new Rng(scripted([...plain, 1, ...plain, 1])) });
    const agent = new AgentClient({
      url,
      agentId: 'acks',
      machines: [{ machine, key: 'key-eleven', stream: null, videoType: 'screen', bands: [] }],
      cycleAckTimeoutMs: 100,
    });
    cleanups.push(
      () => agent.stop(),
      () => machine.dispose(),
    );
    agent.start();
    await until(() => hub.isConnected(11));
    await hub.sendCommand(11, { type: 'credit_in', amountCents: 1_000 });
    await hub.sendCommand(11, { type: 'spin', commandId: 'ack-1' });
    await until(() => received.filter((id) => id === '11-1').length >= 2);
    expect(machine.unacknowledgedGames.map((g) => g.gameId)).toEqual(['11-1']);
    hub.acknowledgeCycle(11, '11-1');
    await until(() => machine.unacknowledgedGames.length === 0);
    // The next game goes once, acknowledged at once.
    hub.on('cycle', (c) => hub.acknowledgeCycle(11, c.cycle.gameId));
    await hub.sendCommand(11, { type: 'spin', commandId: 'ack-2' });
    await until(() => received.includes('11-2') && machine.unacknowledgedGames.length === 0);
  });

  it('marks machines offline when the agent goes away, and they come back on reconnect', async () => {
    const hub = new AgentHub({ verifyMachineKey });
    const url = await startServer(hub);
    const machine = new SlotMachine({ machineId: 12, timing: FAST });
    const agent = new AgentClient({
      url,
      agentId: 'a',
      machines: [{ machine, key: 'key-twelve', stream: null, videoType: 'screen', bands: [] }],
    });
    cleanups.push(
      () => agent.stop(),
      () => machine.dispose(),
    );
    const offline: number[] = [];
    hub.on('state', (s) => s.state === 'offline' && offline.push(s.machineId));
    agent.start();
    await until(() => hub.isConnected(12));
    // Kill the socket from the server side: the agent must reconnect with backoff by itself.
    hub.closeAll();
    await until(() => offline.includes(12));
    await until(() => hub.isConnected(12), 5000);
    expect((await hub.sendCommand(12, { type: 'credit_in', amountCents: 100 })).creditsCents).toBe(100);
  });
});
