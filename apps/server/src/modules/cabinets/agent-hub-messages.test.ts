/**
 * The hub reads nothing a cabinet sends without its schema: a malformed message of every kind is
 * logged and answered `error`, never thrown and never acted on. And a cabinet that drops fails its
 * pending commands at once, as a timeout would, instead of after the timeout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_PROTOCOL_VERSION, Code, type AgentServerMessage } from '@reel/protocol';
import { AgentCommandError, AgentHub } from './agent-hub.js';

const KEY = 'key-eleven';

function harness(commandTimeoutMs = 60_000) {
  const warnings: { details: object; message: string }[] = [];
  const hub = new AgentHub({
    verifyMachineKey: async (id, key) => id === 11 && key === KEY,
    commandTimeoutMs,
    log: { info: () => {}, warn: (details, message) => warnings.push({ details, message }) },
  });
  const sent: AgentServerMessage[] = [];
  let closed = false;
  const conn = hub.accept({ send: (data) => sent.push(JSON.parse(data) as AgentServerMessage), close: () => (closed = true) });
  const message = (event: string, data: unknown) => conn.onMessage(JSON.stringify({ event, data }));
  const connect = async () => {
    await message('hello', { protocol: AGENT_PROTOCOL_VERSION, agentId: 'unit', software: 'test' });
    await message('auth', { machineId: 11, key: KEY, videoType: 'screen', bands: [], betLevels: [20, 40], lines: 20 });
    expect(hub.isConnected(11)).toBe(true);
  };
  cleanups.push(() => hub.closeAll());
  return { hub, conn, sent, warnings, message, connect, isClosed: () => closed };
}

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

const meters = {
  creditsCents: 0, coinInCents: 0, coinOutCents: 0, cashInCents: 0, cashOutCents: 0, gamesPlayed: 0, gamesWon: 0,
  freeGamesPlayed: 0, bonusTriggers: 0, jackpotHits: 0, betCents: 20, betLevel: 0, autoplay: false, freeSpinsLeft: 0,
};

describe('agent hub: the same command asked twice before its answer', () => {
  it('both askers get the one answer (the first was never settled, and a cluster call on it hung)', async () => {
    const h = harness();
    await h.connect();
    const first = h.hub.sendCommand(11, { type: 'spin', commandId: 's:c-1' });
    const second = h.hub.sendCommand(11, { type: 'spin', commandId: 's:c-1' });
    await h.message('command_result', { machineId: 11, result: { commandId: 's:c-1', type: 'spin', outcome: 'ok', creditsCents: 80 } });
    await expect(first).resolves.toMatchObject({ commandId: 's:c-1', creditsCents: 80 });
    await expect(second).resolves.toMatchObject({ commandId: 's:c-1', creditsCents: 80 });
  });

  it('both fail when the repeat times out unanswered', async () => {
    const h = harness(50);
    await h.connect();
    const first = h.hub.sendCommand(11, { type: 'spin', commandId: 's:c-2' });
    first.catch(() => {});
    const second = h.hub.sendCommand(11, { type: 'spin', commandId: 's:c-2' });
    await expect(second).rejects.toBeInstanceOf(AgentCommandError);
    await expect(first).rejects.toBeInstanceOf(AgentCommandError);
  });
});

describe('agent hub: messages that do not match their schema', () => {
  const malformed: [string, unknown][] = [
    ['hello', { protocol: 'one', agentId: 'x', software: 'y' }],
    ['auth', { machineId: 11, key: KEY }],
    ['state', { machineId: 11, state: 'dancing', previous: null, atMs: 1 }],
    ['cycle', { machineId: 11, cycle: { gameId: 'g-1' } }],
    ['meters', { machineId: 11, meters: { ...meters, creditsCents: 'lots' } }],
    ['snapshot', { machineId: 11, view: 'screen', mime: 'image/png', dataBase64: 'AAAA' }],
    // The one that used to throw inside an un-awaited promise: a result without its result.
    ['command_result', { machineId: 11 }],
    ['command_result', { machineId: 11, result: { commandId: 7 } }],
    ['teleport', { machineId: 11 }],
  ];

  it.each(malformed)('%s with bad data is logged and refused, not thrown', async (event, data) => {
    const h = harness();
    await h.connect();
    const events: string[] = [];
    for (const name of ['state', 'cycle', 'meters', 'snapshot', 'command_result'] as const) h.hub.on(name, () => events.push(name));
    const pending = h.hub.sendCommand(11, { type: 'spin', commandId: 'c-1' });
    await expect(h.message(event, data)).resolves.toBeUndefined();
    expect(h.sent.at(-1)).toEqual({ event: 'error', data: { reason: 'bad_message' } });
    expect(h.warnings.at(-1)).toMatchObject({ message: 'agent message refused', details: { agentId: 'unit' } });
    expect(events).toEqual([]);
    expect(h.hub.get(11)!.meters).toBeNull();
    expect(h.hub.get(11)!.state).toBe('idle');
    // The connection goes on: a good answer to the pending command still arrives.
    await h.message('command_result', { machineId: 11, result: { commandId: 'c-1', type: 'spin', outcome: 'ok', creditsCents: 0 } });
    await expect(pending).resolves.toMatchObject({ commandId: 'c-1', outcome: 'ok' });
  });

  it('refuses what is not JSON or not an { event, data } object', async () => {
    const h = harness();
    for (const raw of ['{not json', 'null', '[1,2]', '"hello"', '{"event":"hello"}']) {
      await expect(h.conn.onMessage(raw)).resolves.toBeUndefined();
    }
    expect(h.sent.map((m) => m.event)).toEqual(['error', 'error', 'error', 'error', 'error']);
    expect(h.sent[0]).toEqual({ event: 'error', data: { reason: 'bad_json' } });
    expect(h.warnings).toHaveLength(5);
    expect(h.isClosed()).toBe(false);
  });

  it('logs the first refusals of a connection, then only every 100th', async () => {
    const h = harness();
    for (let i = 0; i < 250; i++) await h.conn.onMessage('{not json');
    expect(h.warnings.map((w) => (w.details as { count: number }).count)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 200]);
  });

  it('takes well-formed reports as before', async () => {
    const h = harness();
    await h.connect();
    const seen: string[] = [];
    h.hub.on('meters', () => seen.push('meters'));
    await h.message('meters', { machineId: 11, meters });
    expect(seen).toEqual(['meters']);
    expect(h.hub.get(11)!.meters).toEqual(meters);
    expect(h.warnings).toEqual([]);
  });
});

describe('agent hub: a cabinet that drops', () => {
  it('fails its pending commands at once, as disconnected, with the catalogue code of a machine that did not answer', async () => {
    const h = harness(60_000);
    await h.connect();
    const started = Date.now();
    const spin = h.hub.sendCommand(11, { type: 'spin', commandId: 'c-1' });
    const cash = h.hub.sendCommand(11, { type: 'cash_out', commandId: 'c-2' });
    h.conn.onClose();
    for (const pending of [spin, cash]) {
      const error = await pending.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AgentCommandError);
      expect(error).toMatchObject({ reason: 'disconnected', code: Code.MachineNoAnswer });
    }
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(h.hub.isConnected(11)).toBe(false);
  });

  it('fails the commands sent on a replaced connection, not those sent on the new one', async () => {
    const h = harness(60_000);
    await h.connect();
    const old = h.hub.sendCommand(11, { type: 'spin', commandId: 'old' });
    // The agent restarted and authenticated the machine again on a new connection.
    const again = h.hub.accept({ send: () => {}, close: () => {} });
    await again.onMessage(JSON.stringify({ event: 'hello', data: { protocol: AGENT_PROTOCOL_VERSION, agentId: 'unit-2', software: 'test' } }));
    await again.onMessage(JSON.stringify({ event: 'auth', data: { machineId: 11, key: KEY, videoType: 'screen', bands: [], betLevels: [20], lines: 20 } }));
    await expect(old).rejects.toMatchObject({ reason: 'disconnected' });
    const fresh = h.hub.sendCommand(11, { type: 'spin', commandId: 'new' });
    h.conn.onClose();
    await again.onMessage(JSON.stringify({ event: 'command_result', data: { machineId: 11, result: { commandId: 'new', type: 'spin', outcome: 'ok', creditsCents: 0 } } }));
    await expect(fresh).resolves.toMatchObject({ commandId: 'new' });
  });
});
