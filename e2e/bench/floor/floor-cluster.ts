/**
 * The floor bench's parts: a throw-away PostgreSQL with the floor seeded, NATS, the headless
 * cabinets (every machine, CABINET_NO_VIDEO=all, connected through HAProxy), and clusters of one or
 * three servers on the same ports, so the cabinets move over by themselves. Also who owns the
 * sessions, the process groups whose CPU is measured, and the versions of every part.
 */
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnTied, freePort } from '@reel/process';
import { REPO_ROOT } from '../../../apps/server/src/config.js';
import { startEmbeddedPostgres } from '../../../apps/server/src/db/embedded-postgres/embedded.js';
import { createPool, type Db } from '../../../apps/server/src/db/pool.js';
import { migrate } from '../../../apps/server/src/db/migrate.js';
import { natsForBench } from '../../../apps/server/src/cluster/nats-server.js';
import { startCluster, type Cluster } from '../../../apps/server/src/cluster/launch/launch.js';
import { benchDir } from '../../../apps/server/bench/bench-kit.js';
import { processTree, type CpuGroups } from '../proc-cpu.js';
import { seedFloor, type FloorSeat } from './floor-seed.js';

const CABINET_PROCESSES = 2;

interface Floor {
  db: Db;
  seats: FloorSeat[];
  cluster: Cluster | null;
  /** Starts a cluster of `servers` on the floor's ports (the previous one stopped first). */
  useServers(servers: number): Promise<Cluster>;
  /** Every part's processes, for the CPU sampler. */
  cpuGroups(): CpuGroups;
  versions(): Promise<string>;
  close(): Promise<void>;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const firstLine = (cmd: string, args: string[]) => {
  const out = spawnSync(cmd, args, { encoding: 'utf8' });
  return `${out.stdout}${out.stderr}`.split('\n').find((l) => l.trim())?.trim() ?? 'missing';
};

export async function openFloor(machines: number, log: (line: string) => void): Promise<Floor> {
  const children: ChildProcess[] = [];
  const { url: natsUrl, child: natsChild } = await natsForBench();
  if (natsChild) children.push(natsChild);
  const dir = benchDir('floor');
  const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'));
  const db = createPool(embedded.url, 4);
  await migrate(db);
  const dataDir = path.join(dir, 'data');
  const keysFile = path.join(dataDir, 'machine-keys.json');
  log(`seeding ${machines} machines and players`);
  const seats = await seedFloor(db, machines, keysFile);
  const ports = await Promise.all([0, 1, 2, 3].map(() => freePort()));
  const jwtSecret = crypto.randomBytes(32).toString('hex');
  const prefix = `reel-floor-${crypto.randomBytes(3).toString('hex')}`;
  const cabinets: ChildProcess[] = [];
  for (let i = 0; i < CABINET_PROCESSES; i++) {
    const ids = seats.filter((_, k) => k % CABINET_PROCESSES === i).map((s) => s.machineId);
    const child = spawnTied(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'apps/cabinet/src/main.ts'), '--no-video'], {
      cwd: REPO_ROOT,
      env: { ...process.env, AGENT_URL: `ws://127.0.0.1:${ports[0]}/ws/agent`, CABINET_KEYS_FILE: keysFile, CABINET_IDS: ids.join(','), CABINET_DATA_DIR: path.join(dir, `cabinets-${i}`) },
      stdio: 'ignore',
    });
    cabinets.push(child);
    children.push(child);
  }
  const postgresPid = async () => {
    const { rows } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return Number(fs.readFileSync(`/proc/${rows[0]!.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  };
  const postmaster = await postgresPid();

  const floor: Floor = {
    db,
    seats,
    cluster: null,
    async useServers(servers) {
      await floor.cluster?.stop();
      floor.cluster = await startCluster({
        port: ports[0]!,
        serverPorts: ports.slice(1, 1 + servers),
        databaseUrl: embedded.url,
        natsUrl,
        natsPrefix: `${prefix}-${servers}`,
        dataDir,
        jwtSecret,
        cabinets: null,
        ...(process.env.FLOOR_BENCH_LOG ? { output: (name: string, line: string) => log(`[${name}] ${line}`) } : {}),
        env: { MEDIA: 'false', LOG_LEVEL: 'warn', SESSION_GRACE_MS: '120000', LOGIN_RATE_LIMIT_PER_MINUTE: '1000000' },
      });
      await waitUntil(
        async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM machines WHERE cabinet_state = 'idle'")).rows[0]!.n >= machines,
        180_000,
        `all ${machines} cabinets idle on ${servers} server(s)`,
      );
      return floor.cluster;
    },
    cpuGroups() {
      const c = floor.cluster!;
      const groups: CpuGroups = {};
      for (const s of c.servers) groups[s.id] = () => processTree(s.child.pid);
      groups.postgres = () => processTree(postmaster);
      groups.cabinets = () => cabinets.flatMap((child) => processTree(child.pid));
      groups.haproxy = () => processTree(c.haproxy.pid);
      if (natsChild) groups.nats = () => processTree(natsChild.pid);
      groups['load generator'] = () => [process.pid];
      return groups;
    },
    async versions() {
      const { rows } = await db.query<{ v: string }>('SELECT version() AS v');
      const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
      return [
        `commit ${commit}; node ${process.version}`,
        `PostgreSQL: ${rows[0]!.v.split(',')[0]}`,
        `HAProxy: ${firstLine('haproxy', ['-v'])}`,
        `NATS: ${natsChild ? firstLine('nats-server', ['--version']) : `${natsUrl} (already running)`}`,
        `cabinets: ${CABINET_PROCESSES} processes of apps/cabinet --no-video (headless: no renderer, no ffmpeg)`,
      ].join('\n');
    },
    async close() {
      for (const child of children) child.kill('SIGKILL');
      await floor.cluster?.stop().catch(() => {});
      await db.end().catch(() => {});
      await embedded.stop().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return floor;
}

/**
 * Open sessions per server. With shard ownership each server's `/check` says how many it owns
 * (`sessions`); without it the one lease holder (`cluster_lease`) owns them all, and `spread` is false.
 */
/** Each server's open sessions and the game sockets it relays to another server, as its /check says. */
export async function sessionOwnership(floor: Floor): Promise<{ perServer: Record<string, number>; relayed: Record<string, number>; spread: boolean }> {
  const c = floor.cluster!;
  const answers = await Promise.all(
    c.servers.map(async (s) => (await (await fetch(`${s.url}/check`)).json().catch(() => ({}))) as { sessions?: number; relayed?: number }),
  );
  const perServer = Object.fromEntries(c.servers.map((s, i) => [s.id, answers[i]!.sessions ?? 0]));
  const relayed = Object.fromEntries(c.servers.map((s, i) => [s.id, answers[i]!.relayed ?? 0]));
  return { perServer, relayed, spread: Object.values(perServer).filter((n) => n > 0).length > 1 };
}
