/**
 * A minimal stand-in for the API server around the video path: the real agent hub and media
 * plugins (apps/server/src/modules/{cabinets,media}), a real cabinet agent process, the real media
 * process, and a few test-only routes (grant, command, the test page). Tests and the benchmark
 * start it on a free port; with the full server ready, the same page and probes can run against
 * it by pointing the grant route at the game channel instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { build } from 'esbuild';
import type { MediaBackend } from '@reel/protocol';
import { stopChild } from '@reel/process';
import { AgentHub, agentHubPlugin, type CommandInput } from '../../apps/server/src/modules/cabinets/index.js';
import { MediaService, mediaPlugin } from '../../apps/server/src/modules/media/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

interface HarnessOptions {
  machineIds?: number[];
  timestampStrip?: boolean;
  backend?: MediaBackend;
  /** Address to listen on (default 127.0.0.1); the fault rig's browser comes in over a veth. */
  host?: string;
  /** Player id put into grants. */
  playerId?: number;
  /** `FFMPEG` for the cabinet process (else it picks one itself, see apps/cabinet/src/media/ffmpeg-path.ts). */
  ffmpeg?: string;
  log?: (msg: string) => void;
}

export interface Harness {
  baseUrl: string;
  hub: AgentHub;
  media: MediaService;
  app: FastifyInstance;
  cabinet: ChildProcess;
  /** Every line the cabinet process printed (its ffmpeg probe line among them). */
  cabinetLog: string[];
  command(machineId: number, cmd: CommandInput): ReturnType<AgentHub['sendCommand']>;
  waitStreaming(machineIds: number[], timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

async function bundlePage(): Promise<string> {
  const out = await build({
    entryPoints: [path.join(here, 'page/video-page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'chrome120',
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const machineIds = opts.machineIds ?? [1];
  const keys = new Map(machineIds.map((id) => [id, `test-key-${id}-${Math.random().toString(36).slice(2)}`]));
  const log = opts.log ?? (() => {});
  const hub = new AgentHub({
    verifyMachineKey: async (id, key) => keys.get(id) === key,
    commandTimeoutMs: 8000,
  });
  const media = new MediaService({
    backend: opts.backend ?? 'werift',
    iceServers: [],
    // Chromium on this machine reaches werift over loopback too.
    iceHosts: ['127.0.0.1'],
    log,
  });
  await media.start();
  const app = Fastify({ logger: false });
  await app.register(agentHubPlugin, { hub });
  await app.register(mediaPlugin, { viewers: media.client });
  const script = await bundlePage();
  const html = readFileSync(path.join(here, 'page/index.html'), 'utf8');
  app.get('/video-test.html', async (_req, reply) => reply.type('text/html').send(html));
  app.get('/video-test.js', async (_req, reply) => reply.type('application/javascript').send(script));
  app.post<{ Params: { machineId: string } }>('/test/grant/:machineId', async (req) =>
    media.issueGrant(opts.playerId ?? 1, Number(req.params.machineId)),
  );
  app.post<{ Params: { machineId: string }; Body: CommandInput }>('/test/command/:machineId', async (req) =>
    hub.sendCommand(Number(req.params.machineId), req.body),
  );
  const listening = await app.listen({ host: opts.host ?? '127.0.0.1', port: 0 });
  const baseUrl = opts.host ? `http://127.0.0.1:${new URL(listening).port}` : listening;
  const stopStreaming = media.streamAllConnected(hub, {
    ...(opts.timestampStrip ? { timestampStrip: true } : {}),
    onError: (id, err) => log(`stream ${id}: ${String(err)}`),
  });

  // The server's part for the games: each is acknowledged as stored, so the cabinet takes the next
  // bet (it starts no paid game while one is unacknowledged).
  hub.on('cycle', ({ machineId, cycle }) => hub.acknowledgeCycle(machineId, cycle.gameId));
  // Its own critical memory, never the product's data folder (nor an earlier harness's games).
  const cabinetDataDir = mkdtempSync(path.join(os.tmpdir(), 'reel-harness-cabinet-'));
  const cabinet = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/cabinet/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      AGENT_URL: `${baseUrl.replace('http', 'ws')}/ws/agent`,
      CABINET_MACHINES: [...keys].map(([id, key]) => `${id}=${key}`).join(','),
      CABINET_DATA_DIR: cabinetDataDir,
      ...(opts.ffmpeg ? { FFMPEG: opts.ffmpeg } : {}),
    },
  });
  const cabinetLog: string[] = [];
  const onOutput = (d: Buffer) => {
    const text = String(d).trim();
    cabinetLog.push(...text.split('\n'));
    log(text);
  };
  cabinet.stdout!.on('data', onOutput);
  cabinet.stderr!.on('data', onOutput);

  const waitStreaming = async (ids: number[], timeoutMs = 20_000) => {
    const t0 = Date.now();
    for (;;) {
      const stats = await media.client.stats().catch(() => null);
      const ready = ids.every((id) => {
        const m = stats?.machines.find((x) => x.machineId === id);
        // Janus counts nothing the adapter could read (null): its mountpoint receiving video then.
        if (m?.keyframes === null) return m.lastPacketAgeMs !== null && m.lastPacketAgeMs < 1000;
        return m && m.keyframes > 0 && (m.audioPackets ?? 0) > 0;
      });
      if (ready) return;
      if (Date.now() - t0 > timeoutMs)
        throw new Error(`machines ${ids.join(',')} not streaming after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  return {
    baseUrl,
    hub,
    media,
    app,
    cabinet,
    cabinetLog,
    command: (id, cmd) => hub.sendCommand(id, cmd),
    waitStreaming,
    async stop() {
      const t0 = Date.now();
      const mark = (what: string) => process.env.HARNESS_TRACE && console.log(`harness stop: ${what} +${Date.now() - t0} ms`);
      stopStreaming();
      await stopChild(cabinet, 'SIGTERM', 3000);
      rmSync(cabinetDataDir, { recursive: true, force: true });
      mark('cabinet stopped');
      await app.close();
      mark('http closed');
      await media.stop();
      mark('media stopped');
    },
  };
}
