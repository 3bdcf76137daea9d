/**
 * The camera view (`view` on the game channel): a real cabinet agent (machine and stream) over the
 * real agent channel, the session manager on the test database. Only the player holding the
 * machine switches it, only while SHOW_WEBCAM is on; the machine view carries the videoType, and
 * the cabinet shows its screen again when the session ends.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@reel/protocol';
import { FakeConnection } from '../../../test/game-connection.js';
import { createTestApp, writeSettings, type TestApp } from '../../../test/helper.js';
import { AppError } from '../../lib/errors.js';
import { AgentHub, agentHubPlugin } from '../cabinets/index.js';
import { SessionManager } from './session-manager.js';
import { SlotMachine } from '../../../../cabinet/src/game/machine.js';
import { MachineStream } from '../../../../cabinet/src/media/machine-stream.js';
import { AgentClient } from '../../../../cabinet/src/agent/agent-client.js';

const until = async (pred: () => boolean, timeoutMs = 15_000) => {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const codeOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: unknown) => (error instanceof AppError ? error.code : error),
  );

let t: TestApp;
let agentServer: FastifyInstance;
let hub: AgentHub;
let sessions: SessionManager;
let agent: AgentClient;
let agentUrl: string;
let machine: SlotMachine;
let stream: MachineStream;
let machineId: number;
let demo: number;
let alice: number;

beforeAll(async () => {
  t = await createTestApp();
  const players = await t.ctx.db.query<{ id: number; username: string }>('SELECT id, username FROM players');
  demo = players.rows.find((p) => p.username === 'demo')!.id;
  alice = players.rows.find((p) => p.username === 'alice')!.id;
  machineId = (
    await t.ctx.db.query<{ id: number }>('SELECT id FROM machines WHERE NOT reservation ORDER BY id LIMIT 1')
  ).rows[0]!.id;
  hub = new AgentHub({
    verifyMachineKey: async (id, key) => id === machineId && key === 'k',
    log: { info: () => {}, warn: () => {} },
  });
  agentServer = Fastify();
  await agentServer.register(agentHubPlugin, { hub });
  agentUrl = (await agentServer.listen({ host: '127.0.0.1', port: 0 })).replace('http', 'ws') + '/ws/agent';
  // No video is started: the view is the renderer's choice, with or without a running encoder.
  sessions = new SessionManager(t.ctx, hub, { grant: async () => null });
  await sessions.start();
  machine = new SlotMachine({ machineId });
  stream = new MachineStream(machine, { ffmpegPath: '/bin/false' });
  agent = new AgentClient({
    url: agentUrl,
    agentId: 'video-view-test',
    machines: [{ machine, key: 'k', stream, videoType: 'screen', bands: stream.bands }],
  });
  agent.start();
  await until(() => hub.get(machineId)?.state === 'idle');
  await sessions.drain();
});

afterAll(async () => {
  await agent?.stop();
  await stream?.stop();
  machine?.dispose();
  await agentServer?.close();
  await sessions?.stop();
  await t?.close();
});

describe('switching the video between screen and camera', () => {
  it('the player holding the machine switches it; others and a SHOW_WEBCAM off are refused; the end of the session puts the screen back', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machineId, conn);
    expect(conn.last('joined')).toMatchObject({ videoType: 'screen', machine: { videoType: 'screen' } });

    await sessions.setVideoType(demo, 'camera');
    expect(stream.view).toBe('camera');
    expect(conn.last('machine')).toMatchObject({ machineId, videoType: 'camera' });

    // Nobody else can switch it: alice holds no machine.
    expect(await codeOf(sessions.setVideoType(alice, 'screen'))).toBe(Code.NoOpenSession);
    expect(stream.view).toBe('camera');

    await sessions.setVideoType(demo, 'screen');
    expect(stream.view).toBe('screen');
    expect(conn.last('machine')).toMatchObject({ videoType: 'screen' });

    writeSettings(t.ctx, { SHOW_WEBCAM: false });
    try {
      expect(await codeOf(sessions.setVideoType(demo, 'camera'))).toBe(Code.CameraUnavailable);
      expect(stream.view).toBe('screen');
      // Back to the screen is always allowed (the setting may be turned off during a session).
      await sessions.setVideoType(demo, 'screen');
    } finally {
      writeSettings(t.ctx, {});
    }

    await sessions.setVideoType(demo, 'camera');
    expect(stream.view).toBe('camera');
    await sessions.leave(demo);
    expect(conn.last('closed')).toMatchObject({ reason: 'closed' });
    await sessions.drain();
    expect(stream.view).toBe('screen');
    expect(sessions.machineView(machineId).videoType).toBe('screen');
  });

  it('a cabinet that lost the server shows its screen; a live camera choice is sent again when it is back', async () => {
    const conn = new FakeConnection();
    await sessions.join(demo, machineId, conn);
    await sessions.setVideoType(demo, 'camera');
    expect(stream.view).toBe('camera');
    // A network cut (the agent's socket dies): the cabinet goes back to its screen by itself.
    (agent as unknown as { ws: { terminate(): void } }).ws.terminate();
    await until(() => stream.view === 'screen');
    await until(() => stream.view === 'camera');
    await sessions.drain();
    expect(conn.last('machine')).toMatchObject({ videoType: 'camera' });
    await sessions.leave(demo);
    await sessions.drain();
    expect(stream.view).toBe('screen');
  });

  it('a cabinet that cannot draw the camera (no video) answers 40302', async () => {
    const conn = new FakeConnection();
    // The agent's stream-less twin: the same machine, no stream to draw into.
    await agent.stop();
    const bare = new AgentClient({
      url: agentUrl,
      agentId: 'video-view-test-bare',
      machines: [{ machine, key: 'k', stream: null, videoType: 'screen', bands: stream.bands }],
    });
    bare.start();
    try {
      await until(() => hub.get(machineId)?.state === 'idle');
      await sessions.drain();
      await sessions.join(alice, machineId, conn);
      expect(await codeOf(sessions.setVideoType(alice, 'camera'))).toBe(Code.CameraUnavailable);
      expect(conn.last('machine')?.videoType ?? conn.last('joined').machine.videoType).toBe('screen');
      await sessions.leave(alice);
      await sessions.drain();
    } finally {
      await bare.stop();
    }
  });
});
