/**
 * The cabinet reads nothing the server sends without its schema: a malformed message of every kind
 * is logged and dropped, never thrown and never acted on, and the connection goes on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { AGENT_PROTOCOL_VERSION, type AgentClientMessage } from '@reel/protocol';
import { SlotMachine } from '../game/machine.js';
import { AgentClient } from './agent-client.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const until = async (pred: () => boolean, timeoutMs = 3000) => {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** A server that records what the cabinet sends and lets the test send it anything. */
async function fakeServer() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  const received: AgentClientMessage[] = [];
  let socket: WebSocket | null = null;
  wss.on('connection', (ws) => {
    socket = ws;
    ws.on('message', (raw) => received.push(JSON.parse(String(raw)) as AgentClientMessage));
  });
  const { port } = wss.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}/ws/agent`,
    received,
    connected: () => socket !== null,
    sendRaw: (raw: string) => socket!.send(raw),
    send: (event: string, data: unknown) => socket!.send(JSON.stringify({ event, data })),
  };
}

async function connectedCabinet() {
  const server = await fakeServer();
  const machine = new SlotMachine({ machineId: 11, timing: { spinDurationMs: 10, reelStaggerMs: 2, autoplayGapMs: 5, cashOutDurationMs: 5 } });
  const logs: string[] = [];
  const agent = new AgentClient({
    url: server.url,
    agentId: 'unit',
    machines: [{ machine, key: 'key-eleven', stream: null, videoType: 'screen', bands: [] }],
    log: (line) => logs.push(line),
  });
  cleanups.push(
    () => machine.dispose(),
    () => agent.stop(),
  );
  agent.start();
  await until(() => server.connected() && server.received.some((m) => m.event === 'auth'));
  return { server, machine, agent, logs };
}

const results = (received: AgentClientMessage[]) =>
  received.flatMap((m) => (m.event === 'command_result' ? [m.data.result] : []));

describe('agent client: server messages that do not match their schema', () => {
  it('logs and drops each malformed kind, and goes on with the well-formed ones', async () => {
    const { server, agent, logs } = await connectedCabinet();
    const malformed: [string, unknown][] = [
      ['welcome', { protocol: 'one' }],
      ['auth_result', { machineId: 11, ok: 'yes' }],
      ['auth_result', { machineId: 11, ok: true, profile: { name: 'M', brand: 'B' } }],
      ['cycle_ack', { machineId: 11 }],
      ['error', {}],
      ['teleport', { machineId: 11 }],
    ];
    server.sendRaw('{not json');
    server.sendRaw('[]');
    for (const [event, data] of malformed) server.send(event, data);
    await until(() => logs.filter((l) => l.startsWith('server message refused')).length === malformed.length + 2);
    expect(agent.isAuthed(11)).toBe(false);

    server.send('auth_result', { machineId: 11, ok: true });
    await until(() => agent.isAuthed(11));

    // A command that is not one (unknown type, a credit of nothing, no id) is not run.
    server.send('command', { machineId: 11, command: { commandId: 'c-0', type: 'self_destruct' } });
    server.send('command', { machineId: 11, command: { commandId: 'c-1', type: 'credit_in', amountCents: 0 } });
    server.send('command', { machineId: 11, command: { type: 'credit_in', amountCents: 500 } });
    server.send('command', { machineId: 11, command: { commandId: 'c-2', type: 'credit_in', amountCents: 500 } });
    await until(() => results(server.received).length === 1);
    expect(results(server.received)).toMatchObject([{ commandId: 'c-2', outcome: 'ok', creditsCents: 500 }]);
    expect(logs.filter((l) => l.includes('command: data'))).toHaveLength(3);
  });

  it('takes a well-formed welcome and authentication without a word in the log', async () => {
    const { server, agent, logs } = await connectedCabinet();
    server.send('welcome', { protocol: AGENT_PROTOCOL_VERSION, serverTimeMs: Date.now() });
    server.send('auth_result', { machineId: 11, ok: true, profile: { name: 'M', brand: 'B', fps: 30 } });
    await until(() => agent.isAuthed(11));
    expect(logs).toEqual([]);
  });
});
