/**
 * Starts a cluster on this machine (docs/scale.md): N servers (cluster/main.ts), HAProxy in front,
 * optionally a NATS server of its own, and the demo cabinets, on one PostgreSQL. Used by `npm run
 * cluster`, the cluster tests and the cluster benchmark. Every child is tied to this process (a
 * kill -9 of it stops them all).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnTied, stopChild } from '@reel/process';
import { REPO_ROOT } from '../../config.js';
import { createPool } from '../../db/pool.js';
import { migrate } from '../../db/migrate.js';
import { seedDemo } from '../../demo/seed.js';
import { haproxyConfig } from './haproxy.js';
import { followShardOwners, writeInitialOwnerMap } from './owner-map.js';
import { SHARD_COUNT, quotaOf } from '../shards.js';

interface ClusterOptions {
  /** HAProxy's port: the cluster's one address. */
  port: number;
  /** One per server. */
  serverPorts: number[];
  databaseUrl: string;
  natsUrl: string;
  natsPrefix: string;
  dataDir: string;
  /** Shared by every server: a token signed by one is valid on all. */
  jwtSecret: string;
  /** Where the demo cabinets connect (default: through HAProxy); null: no cabinets. */
  cabinets?: { agentUrl?: string; ids?: string } | null;
  /** Restart a server that exits (npm run cluster); the tests kill on purpose and do not. */
  restart?: boolean;
  /** Extra environment for the servers. */
  env?: NodeJS.ProcessEnv;
  bind?: string;
  maxconn?: number;
  /**
   * A PEM file (certificate and key): HAProxy serves the cluster over TLS and HTTP/2 on `port`,
   * and plain HTTP on 127.0.0.1:`port + 4` for the cabinets and the readiness checks.
   */
  tlsPem?: string;
  log?: (line: string) => void;
  /** Where the children's output goes (default: dropped). */
  output?: (name: string, line: string) => void;
}

export interface ClusterServer {
  id: string;
  port: number;
  child: ChildProcess;
  url: string;
}

export interface Cluster {
  url: string;
  servers: ClusterServer[];
  cabinets: ChildProcess | null;
  haproxy: ChildProcess;
  /** Starts server `index` again (after a kill). */
  startServer(index: number): Promise<ClusterServer>;
  /** Waits until `/check` of server `index` answers. */
  ready(index: number, timeoutMs?: number): Promise<void>;
  /**
   * Waits until the servers alive (those not killed) own every shard between them, each its even
   * share (shards.ts), as their `/check` says. startCluster returns only once this holds.
   */
  balanced(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const TSX = ['--import', 'tsx'];

/** `gone`: says why waiting is pointless (the process exited), or null. */
async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string, gone: () => string | null = () => null) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const why = gone();
    if (why) throw new Error(`${what}: ${why}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** The longest path a Unix socket may have (sun_path, less its terminating zero). */
const UNIX_SOCKET_PATH_MAX = 107;

/** HAProxy's admin socket in the data folder, or in a private temporary folder when that path is too long. */
function adminSocketPath(dataDir: string) {
  const inData = path.join(dataDir, 'haproxy-admin.sock');
  if (Buffer.byteLength(inData) <= UNIX_SOCKET_PATH_MAX) return inData;
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'reel-haproxy-')), 'admin.sock');
}

/** Migrates the shared database and seeds the demo data once, before any server starts. */
export async function prepareDatabase(databaseUrl: string, dataDir: string) {
  const db = createPool(databaseUrl, 2);
  try {
    await migrate(db);
    return await seedDemo(db, dataDir);
  } finally {
    await db.end();
  }
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const log = opts.log ?? (() => {});
  fs.mkdirSync(opts.dataDir, { recursive: true });
  let stopping = false;
  const pipe = (name: string, child: ChildProcess) => {
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      if (!opts.output) {
        stream.resume();
        continue;
      }
      let buffered = '';
      stream.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) if (line) opts.output!(name, line);
      });
    }
  };
  const spawnNode = (name: string, entry: string, env: NodeJS.ProcessEnv) => {
    const child = spawnTied(process.execPath, [...TSX, path.join(REPO_ROOT, entry)], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pipe(name, child);
    return child;
  };

  const servers: ClusterServer[] = [];
  const startServer = async (index: number): Promise<ClusterServer> => {
    const port = opts.serverPorts[index]!;
    const id = `s${index + 1}`;
    const child = spawnNode(id, 'apps/server/src/cluster/main.ts', {
      CLUSTER: 'true',
      SERVER_ID: id,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: opts.databaseUrl,
      NATS_URL: opts.natsUrl,
      NATS_PREFIX: opts.natsPrefix,
      DATA_DIR: opts.dataDir,
      JWT_SECRET: opts.jwtSecret,
      SEED_DEMO: 'false',
      // HAProxy says who the client is (X-Forwarded-For): rate limits and the IP check see players.
      TRUST_PROXY: 'true',
      ...opts.env,
    });
    const server = { id, port, child, url: `http://127.0.0.1:${port}` };
    servers[index] = server;
    child.once('exit', (code, signal) => {
      if (stopping || servers[index] !== server) return;
      log(`${id} exited (${signal ?? code})${opts.restart ? '; starting it again in 1 s' : ''}`);
      if (opts.restart) setTimeout(() => void (!stopping && startServer(index).catch((e) => log(`${id}: ${(e as Error).message}`))), 1_000);
    });
    return server;
  };
  const ready = (index: number, timeoutMs = 90_000) =>
    waitFor(async () => (await fetch(`${servers[index]!.url}/check`)).ok, timeoutMs, `server s${index + 1}`, () => {
      const child = servers[index]!.child;
      return child.exitCode !== null ? `exited with ${child.exitCode}` : null;
    });

  const balanced = (timeoutMs = 30_000) =>
    waitFor(
      async () => {
        const live = servers.filter((s) => s.child.exitCode === null && s.child.signalCode === null);
        const owned = await Promise.all(live.map(async (s) => ((await (await fetch(`${s.url}/check`)).json()) as { shards?: number }).shards ?? 0));
        const ids = live.map((s) => s.id);
        return owned.reduce((a, b) => a + b, 0) === SHARD_COUNT && live.every((s, i) => owned[i] === quotaOf(s.id, ids));
      },
      timeoutMs,
      'the shards split evenly over the live servers',
    );

  for (let i = 0; i < opts.serverPorts.length; i++) await startServer(i);
  await Promise.all(opts.serverPorts.map((_, i) => ready(i)));
  await balanced();

  const cfgFile = path.join(opts.dataDir, 'haproxy.cfg');
  const ownerMap = { mapFile: path.join(opts.dataDir, 'shard-owners.map'), adminSocket: adminSocketPath(opts.dataDir) };
  writeInitialOwnerMap(ownerMap.mapFile);
  // What the parts on this machine use: with TLS a plain bind of its own, which needs no trust in the certificate.
  const internalPort = opts.tlsPem ? opts.port + 4 : opts.port;
  fs.writeFileSync(
    cfgFile,
    haproxyConfig({
      port: opts.port,
      bind: opts.bind,
      maxconn: opts.maxconn,
      servers: opts.serverPorts.map((port, i) => ({ id: `s${i + 1}`, port })),
      ownerMap,
      ...(opts.tlsPem ? { tlsPem: opts.tlsPem, internalPort } : {}),
    }),
  );
  const haproxy = spawnTied('haproxy', ['-db', '-f', cfgFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  pipe('haproxy', haproxy);
  const url = opts.tlsPem ? `https://127.0.0.1:${opts.port}` : `http://127.0.0.1:${opts.port}`;
  await waitFor(async () => (await fetch(`http://127.0.0.1:${internalPort}/check`)).ok, 20_000, 'HAProxy', () =>
    haproxy.exitCode !== null ? `exited with ${haproxy.exitCode} (its config: ${cfgFile})` : null,
  );
  const owners = await followShardOwners({ natsUrl: opts.natsUrl, natsPrefix: opts.natsPrefix, ...ownerMap, log });

  let cabinets: ChildProcess | null = null;
  if (opts.cabinets !== null) {
    cabinets = spawnNode('cabinets', 'apps/cabinet/src/main.ts', {
      AGENT_URL: opts.cabinets?.agentUrl ?? `ws://127.0.0.1:${internalPort}/ws/agent`,
      CABINET_KEYS_FILE: path.join(opts.dataDir, 'machine-keys.json'),
      ...(opts.cabinets?.ids ? { CABINET_IDS: opts.cabinets.ids } : {}),
    });
  }
  log(`cluster up: ${url} → ${servers.map((s) => `${s.id} :${s.port}`).join(', ')}`);

  return {
    url,
    servers,
    get cabinets() {
      return cabinets;
    },
    haproxy,
    startServer,
    ready,
    balanced,
    async stop() {
      stopping = true;
      if (cabinets) await stopChild(cabinets);
      await Promise.all(servers.map((s) => stopChild(s.child)));
      await owners.stop();
      await stopChild(haproxy);
      // A private temporary folder of its own (a long data folder path): nothing else lives there.
      if (path.dirname(ownerMap.adminSocket) !== opts.dataDir) fs.rmSync(path.dirname(ownerMap.adminSocket), { recursive: true, force: true });
    },
  };
}
