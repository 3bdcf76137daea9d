/**
 * A machine whose video cannot start, end to end on the server side: a real cabinet agent (machine,
 * stream with a failing ffmpeg) over the real agent channel to the hub, the session manager on the
 * test database. The machine must end up in 'error' with its video error, Not Available in the
 * lobby, refused to new players, and the player on it told 70000 while still able to leave.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, type BrandWithMachines, type StreamTarget } from '@reel/protocol';
import { FakeConnection } from '../../../test/game-connection.js';
import { createTestApp, type TestApp } from '../../../test/helper.js';
import { Topic } from '../../lib/bus.js';
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

const dir = mkdtempSync(path.join(tmpdir(), 'reel-video-failure-'));
const FAILING_FFMPEG = path.join(dir, 'ffmpeg');
writeFileSync(
  FAILING_FFMPEG,
  `#!/bin/sh\necho "Unrecognized option 'fps_mode'." >&2\necho "Error splitting the argument list: Option not found" >&2\nexit 1\n`,
);
chmodSync(FAILING_FFMPEG, 0o755);

const target: StreamTarget = {
  host: '127.0.0.1',
  videoPort: 9,
  audioPort: 9,
  videoSsrc: 1,
  audioSsrc: 2,
  videoPayloadType: 96,
  audioPayloadType: 111,
  bandId: 'high',
};

let t: TestApp;
let agentServer: FastifyInstance;
let hub: AgentHub;
let sessions: SessionManager;
let agent: AgentClient;
let machine: SlotMachine;
let stream: MachineStream;
let machineId: number;
let demo: number;
let alice: number;
const cabinetLog: string[] = [];
const hubWarnings: { machineId: number; videoError?: string }[] = [];
const lobby: { id: number; status: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const players = await t.ctx.db.query<{ id: number; username: string }>('SELECT id, username FROM players');
  demo = players.rows.find((p) => p.username === 'demo')!.id;
  alice = players.rows.find((p) => p.username === 'alice')!.id;
  machineId = (
    await t.ctx.db.query<{ id: number }>('SELECT id FROM machines WHERE NOT reservation ORDER BY id LIMIT 1')
  ).rows[0]!.id;
  t.ctx.bus.subscribe(Topic.lobby, (m) => {
    const message = m as { event: string; data: { id: number; status: string } };
    if (message.event === 'machine') lobby.push(message.data);
  });

  hub = new AgentHub({
    verifyMachineKey: async (id, key) => id === machineId && key === 'k',
    log: { info: () => {}, warn: (o) => hubWarnings.push(o as (typeof hubWarnings)[number]) },
  });
  agentServer = Fastify();
  await agentServer.register(agentHubPlugin, { hub });
  const url = (await agentServer.listen({ host: '127.0.0.1', port: 0 })).replace('http', 'ws') + '/ws/agent';
  // Like the product's video port: a grant starts the machine's stream first.
  sessions = new SessionManager(t.ctx, hub, {
    grant: async (_playerId, id) => {
      await hub.sendCommand(id, { type: 'stream_start', target });
      return null;
    },
  });
  await sessions.start();

  machine = new SlotMachine({ machineId });
  stream = new MachineStream(machine, {
    ffmpegPath: FAILING_FFMPEG,
    log: (m) => cabinetLog.push(m),
    restartPolicy: { initialDelayMs: 50, maxDelayMs: 200, fastFailureMs: 2000, maxFastFailures: 4 },
  });
  agent = new AgentClient({
    url,
    agentId: 'video-failure-test',
    machines: [{ machine, key: 'k', stream, videoType: 'screen', bands: stream.bands }],
  });
  agent.start();
  await until(() => hub.get(machineId)?.state === 'idle');
  await sessions.drain();
});

afterAll(async () => {
  // The agent going away reports the machine offline: let the session manager finish with that first.
  await agent?.stop();
  await stream?.stop();
  machine?.dispose();
  await agentServer?.close();
  await sessions?.stop();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const lobbyStatus = async () => {
  const token = await t.login();
  const groups = (
    await t.app.inject({ method: 'GET', url: '/api/machine/all', headers: t.auth(token) })
  ).json<BrandWithMachines[]>();
  return groups.flatMap((g) => g.machines).find((m) => m.id === machineId)!.status;
};

describe('a machine whose encoder cannot run', () => {
  it('is reported over the agent channel as error with its video error, and the lobby shows it Not Available', async () => {
    expect(await lobbyStatus()).toBe('available');
    const conn = new FakeConnection();
    await sessions.join(demo, machineId, conn);
    expect(conn.last('joined').machine.videoError).toBeUndefined();

    await until(() => hub.get(machineId)?.state === 'error');
    await sessions.drain();
    expect(hub.get(machineId)!.videoError).toBe("Unrecognized option 'fps_mode'.");
    expect(hubWarnings).toContainEqual(
      expect.objectContaining({ machineId, videoError: "Unrecognized option 'fps_mode'." }),
    );
    // The cabinet said it once (plus the give-up line), not once per retry.
    expect(cabinetLog.filter((l) => l.includes('fps_mode'))).toHaveLength(2);

    const { rows } = await t.ctx.db.query<{ cabinet_state: string }>(
      'SELECT cabinet_state FROM machines WHERE id = $1',
      [machineId],
    );
    expect(rows[0]!.cabinet_state).toBe('error');
    expect(lobby).toContainEqual({ id: machineId, status: 'not_available', hot: false, queue: 0 });

    // The player on the machine is told why there is no picture.
    expect(conn.last('machine')).toMatchObject({
      machineId,
      cabinetState: 'error',
      videoError: Code.PipelineFailed,
    });

    // The player can still leave: the session closes (cash out works on a video fault).
    await sessions.leave(demo);
    expect(conn.last('closed')).toMatchObject({ reason: 'closed' });
    await sessions.drain();

    // Nobody can start playing it now.
    const refused = await sessions.join(alice, machineId, new FakeConnection()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe(Code.MachineNotAvailable);
    expect(await lobbyStatus()).toBe('not_available');
  });

  it('comes back Available once its video works again', async () => {
    writeFileSync(FAILING_FFMPEG, '#!/bin/sh\nexec sleep 30\n');
    // The probe of the old script is cached per path; the arguments do not matter to `sleep`.
    await hub.sendCommand(machineId, { type: 'stream_start', target });
    await until(() => hub.get(machineId)?.state === 'idle', 10_000);
    await sessions.drain();
    expect(hub.get(machineId)!.videoError).toBeNull();
    expect(await lobbyStatus()).toBe('available');
    await hub.sendCommand(machineId, { type: 'stream_stop' });
  });
});
