/**
 * `npm run bench -- cluster`: the multi-server mode on this machine (docs/scale.md): three cluster
 * servers, HAProxy, NATS (the system one on 127.0.0.1:4222, else a nats-server of its own) and a
 * throw-away embedded PostgreSQL; the load generator shares the same two cores.
 *
 * 1. Fan-out: CLIENTS notification sockets spread evenly over the three servers, RATE machine
 *    status changes per second published on the bus (as the session owner publishes them), each
 *    stamped with its send time. Lobby pushes are conflated per socket (issue 29: at most one write
 *    per 100 ms, the latest state wins), so a change is delivered when its state or a newer one of
 *    the same machine arrives (lobby-delivery.ts): change-to-delivery p50/p99 (goal p99 ≤ 150 ms),
 *    every machine's final state at every probe socket, server memory and CPU per socket. The sockets are bare clients
 *    (cluster-clients.ts) so that receiving costs this process little next to the servers.
 * 2. Game command round trip: a bet-level command from a player's game socket until the machine
 *    view that follows it; player, session owner and cabinet on one server, then the player on A
 *    and the cabinet on B (owner elsewhere or on A).
 *    "Session owner" here is the owner of machine 1's shard (each server owns a third of the shards).
 * 3. Failover: kill -9 of the session owner (which also holds the player's socket; the cabinet is on B) until the first
 *    spin accepted through HAProxy on another server (the machine's in_game view).
 * Exits non-zero when a goal is missed or a part is missing.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { spawnTied, freePort } from '@reel/process';
import { REPO_ROOT } from '../src/config.js';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres/embedded.js';
import { createPool } from '../src/db/pool.js';
import { natsForBench } from '../src/cluster/nats-server.js';
import { createNatsBus } from '../src/cluster/nats-bus.js';
import { prepareDatabase, startCluster, type Cluster, type ClusterServer } from '../src/cluster/launch/launch.js';
import { Topic } from '../src/lib/bus.js';
import { benchDir, percentile } from './bench-kit.js';
import { drainSocket } from './cluster-clients.js';
import { LobbyDeliveries } from './lobby-delivery.js';

const CLIENTS = Number(process.env.CLUSTER_BENCH_CLIENTS || 10_000);
const RATE = Number(process.env.CLUSTER_BENCH_RATE || 200);
const FANOUT_SECONDS = Number(process.env.CLUSTER_BENCH_SECONDS || 5);
const COMMANDS = 200;
const GOALS = { fanoutP99Ms: 150, failoverMs: 10_000 };

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    await sleep(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}
/** CPU seconds a process has used so far (utime + stime, in the kernel's 100 Hz ticks). */
const cpuSeconds = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

if (spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status !== 0) {
  console.error('cluster bench: haproxy is not installed (apt-get install haproxy)');
  process.exit(1);
}
const children: ChildProcess[] = [];
const { url: natsUrl, child: natsChild } = await natsForBench();
if (natsChild) children.push(natsChild);
const dir = benchDir('cluster');
const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'));
const dataDir = path.join(dir, 'data');
await prepareDatabase(embedded.url, dataDir);
const db = createPool(embedded.url, 2);
const prefix = `reel-bench-${crypto.randomBytes(3).toString('hex')}`;
const ports = await Promise.all([1, 2, 3, 4].map(() => freePort()));
let cluster: Cluster | undefined;
const misses: string[] = [];

function spawnCabinet(server: ClusterServer, ids: string) {
  const child = spawnTied(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'apps/cabinet/src/main.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, AGENT_URL: `ws://127.0.0.1:${server.port}/ws/agent`, CABINET_KEYS_FILE: path.join(dataDir, 'machine-keys.json'), CABINET_IDS: ids },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

interface Message {
  event: string;
  data: Record<string, unknown>;
}
function gameSocket(url: string, token: string) {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  const messages: Message[] = [];
  const listeners = new Set<(m: Message) => void>();
  socket.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as Message;
    messages.push(m);
    for (const l of listeners) l(m);
  });
  return {
    socket,
    messages,
    opened: new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject))),
    send: (event: string, data: unknown) => socket.send(JSON.stringify({ event, data })),
    waitFor(match: (m: Message) => boolean, timeoutMs = 30_000) {
      return new Promise<Message>((resolve, reject) => {
        const timer = setTimeout(() => (listeners.delete(l), reject(new Error(`timed out; last messages ${JSON.stringify(messages.slice(-3))}`))), timeoutMs);
        const l = (m: Message) => {
          if (!match(m)) return;
          clearTimeout(timer);
          listeners.delete(l);
          resolve(m);
        };
        listeners.add(l);
      });
    },
    async join(machineId: number) {
      await this.opened;
      const joined = this.waitFor((m) => m.event === 'joined' || (m.event === 'error' && m.data.fatal === true), 60_000);
      this.send('init', { machineID: machineId, token, protocol: 1 });
      const m = await joined;
      if (m.event !== 'joined') throw new Error(`join failed: ${JSON.stringify(m.data)}`);
      return m.data as unknown as { betLevels: number[]; machine: { creditsCents: number } };
    },
  };
}

/** Bet level round trips: the command until the machine view that carries the new level. */
async function commandRoundTrips(game: ReturnType<typeof gameSocket>, betLevels: number[], label: string) {
  const times: number[] = [];
  for (let i = 0; i < COMMANDS; i++) {
    // The level is an index into the machine's bet levels; it alternates between the first two.
    const target = betLevels.length > 1 ? (i + 1) % 2 : 0;
    const started = performance.now();
    const seen = game.waitFor((m) => (m.event === 'machine' && m.data.betLevel === target) || m.event === 'error', 10_000);
    game.send('bet', { commandId: `${label}-${i}`, level: target });
    const m = await seen;
    if (m.event === 'error') throw new Error(`${label}: ${JSON.stringify(m.data)}`);
    times.push(performance.now() - started);
    // The game channel takes at most 30 messages a second per socket: stay under it, and let the
    // machine view of this command settle before the next one.
    await sleep(Math.max(50, 45 - (performance.now() - started)));
  }
  return stats(times);
}

try {
  cluster = await startCluster({
    port: ports[0]!,
    serverPorts: ports.slice(1),
    databaseUrl: embedded.url,
    natsUrl,
    natsPrefix: prefix,
    dataDir,
    jwtSecret: crypto.randomBytes(32).toString('hex'),
    cabinets: null,
    ...(process.env.CLUSTER_BENCH_LOG ? { output: (name: string, line: string) => console.log(`[${name}] ${line}`) } : {}),
    env: { MEDIA: 'false', LOG_LEVEL: 'warn', SESSION_GRACE_MS: '120000', LOGIN_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  const c = cluster;
  const ownerId = (await db.query<{ owner: string }>('SELECT owner FROM cluster_shards WHERE shard = 1')).rows[0]!.owner;
  const owner = c.servers.find((s) => s.id === ownerId)!;
  const [b, third] = c.servers.filter((s) => s !== owner) as [ClusterServer, ClusterServer];
  const login = async (username: string, password: string) =>
    ((await (await fetch(`${c.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) })).json()) as { token: string }).token;
  const token = await login('demo', 'demo1234');
  const aliceToken = await login('alice', 'alice1234');
  const bobbyToken = await login('bobby', 'bobby1234');

  // --- 1. fan-out -------------------------------------------------------------------------------
  const rssBefore = c.servers.reduce((sum, s) => sum + rssKb(s.child.pid!), 0);
  const deliveries = new LobbyDeliveries();
  const sockets: net.Socket[] = [];
  const PROBE_EVERY = 10;
  let connected = 0;
  const connectOne = async (i: number) => {
    const server = c.servers[i % c.servers.length]!;
    // Every tenth socket reads its messages (the rest only receive them, as the others would).
    const onSentAt = i % PROBE_EVERY === 0 ? deliveries.probe() : undefined;
    sockets.push(await drainSocket('127.0.0.1', server.port, `/ws/notifications?token=${token}`, onSentAt));
    connected++;
  };
  for (let i = 0; i < CLIENTS; i += 200) await Promise.all(Array.from({ length: Math.min(200, CLIENTS - i) }, (_, k) => connectOne(i + k)));
  await sleep(2_000);
  const rssAfter = c.servers.reduce((sum, s) => sum + rssKb(s.child.pid!), 0);
  const bus = await createNatsBus({ servers: natsUrl, prefix, name: 'bench' });
  const total = RATE * FANOUT_SECONDS;
  // Who used the CPU while the changes were delivered: the servers, or this load generator.
  const serversCpuBefore = c.servers.map((s) => cpuSeconds(s.child.pid!));
  const benchCpuBefore = process.cpuUsage();
  const started = Date.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    if (due > Date.now()) await sleep(due - Date.now());
    const sentAt = Date.now();
    deliveries.changed(1 + (i % 12), sentAt);
    bus.publish(Topic.lobby, { event: 'machine', data: { id: 1 + (i % 12), status: i % 2 ? 'playing' : 'available', hot: false, sentAt } });
  }
  // Until every probe socket has every machine's final state (60 s at most): a conflated stream
  // ends with them, so a late one counts against the latency instead of being cut off.
  await waitUntil(() => deliveries.finalsDelivered(), 60_000, 'the final states').catch(() => {});
  // Up to the last delivery: a wait for changes that never arrive would dilute the percentages.
  const fanoutWallS = (Math.max(deliveries.lastReceivedAt, started + 1) - started) / 1000;
  const serversCpuPct = c.servers.map((s, i) => ((cpuSeconds(s.child.pid!) - serversCpuBefore[i]!) / fanoutWallS) * 100);
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const benchCpuPct = ((benchCpu.user + benchCpu.system) / 1e6 / fanoutWallS) * 100;
  const judged = deliveries.judge();
  const fan = stats(judged.latencies);
  const expected = total * deliveries.probes;
  const lost = judged.undelivered;
  for (const socket of sockets) socket.destroy();
  await bus.close();
  const perSocketKb = (rssAfter - rssBefore) / Math.max(1, connected);

  // Printed now: a failure in a later part must not lose these numbers.
  console.log(`fan-out: ${connected} notification sockets over ${c.servers.length} servers, ${RATE} status changes/s for ${FANOUT_SECONDS} s`);
  console.log(`  change → delivery samples ${fan.n} (changes × probe sockets, of ${expected}; ${lost} never delivered)  p50 ${fan.p50.toFixed(0)} ms  p99 ${fan.p99.toFixed(0)} ms  (goal p99 <= ${GOALS.fanoutP99Ms} ms)`);
  console.log(`  conflation        ${judged.messages} messages reached the ${deliveries.probes} probe sockets for ${total} changes each (${(judged.messages / Math.max(1, deliveries.probes) / FANOUT_SECONDS).toFixed(1)} a second per socket); final states missed: ${judged.finalMissed}`);
  console.log(`  CPU per socket    ${((serversCpuPct.reduce((a, b) => a + b, 0) / 100 / Math.max(1, connected)) * 1e6).toFixed(1)} µs of server CPU per socket per second`);
  console.log(`  CPU while delivering (${fanoutWallS.toFixed(1)} s)  servers ${serversCpuPct.map((p) => `${p.toFixed(0)}%`).join(' ')} of a core, this load generator ${benchCpuPct.toFixed(0)}%; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`  server memory     ${(perSocketKb).toFixed(1)} KB per socket (RSS of the 3 servers, ${((rssAfter - rssBefore) / 1024).toFixed(0)} MB for ${connected})`);
  if (fan.p99 > GOALS.fanoutP99Ms) misses.push(`fan-out p99 ${fan.p99.toFixed(0)} ms > ${GOALS.fanoutP99Ms} ms`);
  if (lost > 0) misses.push(`${lost} status changes never reached a probe socket (not even as a newer state)`);
  if (judged.finalMissed > 0) misses.push(`${judged.finalMissed} final states never reached a probe socket`);

  // --- 2. command round trips ------------------------------------------------------------------
  // Same server: machine 1's cabinet, the player and the session owner all on the owner.
  spawnCabinet(owner, '1');
  // Across servers: machine 2's cabinet on B, the player on the third server. Machine 3 (also on B,
  // which survives) is the failover's: its cabinet must not die with the owner, as a cabinet
  // connected straight to a killed server's port never comes back (the real ones use HAProxy).
  spawnCabinet(b, '2,3');
  await waitUntil(async () => (await db.query("SELECT 1 FROM machines WHERE id IN (1, 2, 3) AND cabinet_state = 'idle'")).rowCount === 3, 120_000, 'the cabinets');
  const same = gameSocket(`ws://127.0.0.1:${owner.port}/ws/game?token=${token}`, token);
  const sameJoined = await same.join(1);
  const sameStats = await commandRoundTrips(same, sameJoined.betLevels, 'same');
  const across = gameSocket(`ws://127.0.0.1:${third.port}/ws/game?token=${aliceToken}`, aliceToken);
  const acrossJoined = await across.join(2);
  const acrossStats = await commandRoundTrips(across, acrossJoined.betLevels, 'across');
  across.socket.close();

  console.log('round trips done');
  // --- 3. failover -----------------------------------------------------------------------------
  // The player's socket is on the owner, the machine's cabinet on B: kill -9 of the owner takes the
  // socket and the sessions' owner at once.
  const doomed = gameSocket(`ws://127.0.0.1:${owner.port}/ws/game?token=${bobbyToken}`, bobbyToken);
  await doomed.join(3);
  doomed.send('cashin', { amountCents: 1_000, idempotencyKey: 'bench-failover' });
  await doomed.waitFor((m) => m.event === 'cashedIn');
  const killedAt = performance.now();
  console.log(`failover: kill -9 of ${owner.id} at ${new Date().toISOString()}`);
  owner.child.kill('SIGKILL');
  let spinAccepted = 0;
  let lastFailure = '';
  // One reconnecting client, as the web app's game channel: join through HAProxy, then spin until
  // a spin is accepted (the machine view leaves idle).
  for (let attempt = 0; !spinAccepted && performance.now() - killedAt < 60_000; attempt++) {
    const game = gameSocket(`${c.url.replace('http', 'ws')}/ws/game?token=${bobbyToken}`, bobbyToken);
    try {
      await game.join(3);
      for (let spin = 0; !spinAccepted && performance.now() - killedAt < 60_000; spin++) {
        const answer = game.waitFor((m) => (m.event === 'machine' && m.data.cabinetState !== 'idle') || m.event === 'error', 10_000);
        game.send('spin', { commandId: `failover-${attempt}-${spin}` });
        const m = await answer;
        if (m.event === 'machine') spinAccepted = performance.now();
        else {
          lastFailure = `spin: ${JSON.stringify(m.data)}`;
          await sleep(200);
        }
      }
    } catch (error) {
      lastFailure = (error as Error).message.slice(0, 300);
      await sleep(200);
    } finally {
      game.socket.close();
    }
  }
  if (!spinAccepted) console.log(`failover: no spin accepted; last failure: ${lastFailure}`);
  const failoverMs = spinAccepted ? spinAccepted - killedAt : Infinity;
  const newOwner = (await db.query<{ owner: string }>('SELECT owner FROM cluster_shards WHERE shard = 1')).rows[0]?.owner;

  console.log(`game command round trip (bet level → machine view), ${COMMANDS} each:`);
  console.log(`  same server       samples ${sameStats.n}  p50 ${sameStats.p50.toFixed(1)} ms  p99 ${sameStats.p99.toFixed(1)} ms`);
  console.log(`  across servers    samples ${acrossStats.n}  p50 ${acrossStats.p50.toFixed(1)} ms  p99 ${acrossStats.p99.toFixed(1)} ms  (player on ${third.id}, owner ${owner.id}, cabinet on ${b.id})`);
  console.log(`failover: kill -9 of ${owner.id} (owner) → first spin accepted through HAProxy: ${Number.isFinite(failoverMs) ? `${(failoverMs / 1000).toFixed(2)} s` : 'never'} (samples 1; new owner ${newOwner}; goal <= ${GOALS.failoverMs / 1000} s)`);
  if (failoverMs > GOALS.failoverMs) misses.push(`failover ${(failoverMs / 1000).toFixed(1)} s > ${GOALS.failoverMs / 1000} s`);
} catch (error) {
  misses.push(`bench failed: ${(error as Error).message}`);
} finally {
  for (const child of children) child.kill('SIGKILL');
  await cluster?.stop().catch(() => {});
  await db.end().catch(() => {});
  await embedded.stop().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
}
if (misses.length) {
  console.log(`\nMISSED: ${misses.join('; ')}`);
  process.exit(1);
}
console.log('\nall cluster goals met');
process.exit(0);
