/**
 * Sign-in and balance benchmark over real HTTP on 127.0.0.1 against a throw-away embedded
 * PostgreSQL: p50/p99 latency of POST /api/login (argon2id included) and requests per second of
 * GET /api/player/balance. The load runs in a worker thread so it does not share the server's event
 * loop. Its goals (the same as before the Verdict: it has no latency or throughput goal) are that
 * every request answers 200 and every sample set is complete: all sign-ins sent, and at least
 * BALANCE_MIN_PER_CONNECTION balance requests per client. It exits 1 on a miss (Verdict).
 * Usage: tsx apps/server/bench/login.ts [--logins N] [--login-concurrency N] [--seconds N] [--connections N]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { Verdict } from '@reel/process';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres/embedded.js';
import { seedDemo, DEMO_PLAYERS } from '../src/demo/seed.js';
import { buildApp, createContext } from '../src/server.js';
import { benchConfig, benchDir, percentile, printTable } from './bench-kit.js';

const { values } = parseArgs({
  options: {
    logins: { type: 'string', default: '200' },
    'login-concurrency': { type: 'string', default: '8' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
  },
});
const LOGINS = Number(values.logins);
const LOGIN_CONCURRENCY = Number(values['login-concurrency']);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
/** A balance run with fewer requests than this per client says too little about its rate. */
const BALANCE_MIN_PER_CONNECTION = 10;

/**
 * The load generator (plain JS, evaluated in the worker): `concurrency` loops sending one request
 * at a time each, for a fixed count or until a deadline; reports latencies and status counts.
 */
const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { requests, concurrency, durationMs, base } = workerData;
(async () => {
  const latencies = [];
  const statuses = {};
  let next = 0;
  const started = performance.now();
  const deadline = started + (durationMs || Infinity);
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (;;) {
      const n = next++;
      if (durationMs ? performance.now() >= deadline : n >= requests.length) return;
      const r = requests[n % requests.length];
      const t0 = performance.now();
      const response = await fetch(base + r.path, { method: r.method, headers: r.headers, body: r.body });
      await response.arrayBuffer();
      latencies.push(performance.now() - t0);
      statuses[response.status] = (statuses[response.status] || 0) + 1;
    }
  }));
  parentPort.postMessage({ latencies, statuses, seconds: (performance.now() - started) / 1000 });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
interface LoadResult {
  latencies: number[];
  statuses: Record<string, number>;
  seconds: number;
}

function load(
  base: string,
  requests: LoadRequest[],
  concurrency: number,
  durationMs = 0,
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER, {
      eval: true,
      workerData: { base, requests, concurrency, durationMs },
    });
    worker.once('message', (message: LoadResult & { error?: string }) => {
      void worker.terminate();
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}



function summary(name: string, concurrency: number, result: LoadResult) {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return {
    test: name,
    concurrency: String(concurrency),
    requests: String(result.latencies.length),
    'req/s': (result.latencies.length / result.seconds).toFixed(0),
    'p50 ms': percentile(sorted, 50).toFixed(1),
    'p99 ms': percentile(sorted, 99).toFixed(1),
    statuses: Object.entries(result.statuses)
      .map(([status, count]) => `${status}x${count}`)
      .join(' '),
  };
}

const dir = benchDir('login');
console.log(`Starting an embedded PostgreSQL in ${dir} ...`);
const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'));
const verdict = new Verdict('login');
try {
  const config = benchConfig(dir);
  // The benchmark measures the work of a sign-in, not the rate limiter or the failure lock-out.
  config.login.rateLimitPerMinute = 1_000_000;
  config.logLevel = 'warn';
  const ctx = await createContext(config, embedded.url);
  await seedDemo(ctx.db, config.dataDir);
  const app = await buildApp(ctx, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;

  const loginRequests: LoadRequest[] = DEMO_PLAYERS.map((p) => ({
    method: 'POST',
    path: '/login',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: p.username, password: p.password, site_id: 0 }),
  }));
  // Warm-up: JIT, connections, argon2 worker threads.
  await load(base, loginRequests, LOGIN_CONCURRENCY, 0).catch(() => undefined);
  // One at a time first: the cost of a sign-in itself; then with concurrency, as under load.
  const serialLogins = await load(
    base,
    Array.from({ length: Math.min(50, LOGINS) }, (_, i) => loginRequests[i % loginRequests.length]!),
    1,
  );
  const logins = await load(
    base,
    Array.from({ length: LOGINS }, (_, i) => loginRequests[i % loginRequests.length]!),
    LOGIN_CONCURRENCY,
  );

  const tokens: string[] = [];
  for (const p of DEMO_PLAYERS) {
    const response = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: p.username, password: p.password }),
    });
    tokens.push(((await response.json()) as { token: string }).token);
  }
  const balanceRequests: LoadRequest[] = tokens.map((token) => ({
    method: 'GET',
    path: '/player/balance',
    headers: { authorization: `Bearer ${token}` },
  }));
  const probe = await fetch(`${base}/player/balance`, { headers: balanceRequests[0]!.headers });
  const probeBody = (await probe.json()) as { code?: number; balance?: number };
  if (probe.status !== 200 || typeof probeBody.balance !== 'number') {
    throw new Error(
      `GET /api/player/balance is not answering a balance (HTTP ${probe.status}, ${JSON.stringify(probeBody)})`,
    );
  }
  await load(base, balanceRequests, CONNECTIONS, 1_000);
  const balance = await load(base, balanceRequests, CONNECTIONS, SECONDS * 1_000);

  console.log('');
  console.log(
    `HTTP benchmark on 127.0.0.1 (real sockets; load from a worker thread), ${os.cpus().length} CPUs, embedded PostgreSQL`,
  );
  console.log(
    `POST /api/login: ${Math.min(50, LOGINS)} sign-ins one at a time, then ${LOGINS} with ${LOGIN_CONCURRENCY} in flight, of the demo players, argon2id (m=19 MiB, t=2) included`,
  );
  console.log(
    `GET /api/player/balance: ${SECONDS} s with ${CONNECTIONS} concurrent keep-alive clients (token check + wallet query per request)`,
  );
  console.log('');
  printTable([
    summary('POST /api/login', 1, serialLogins),
    summary('POST /api/login', LOGIN_CONCURRENCY, logins),
    summary('GET /api/player/balance', CONNECTIONS, balance),
  ]);
  const notOk = (r: LoadResult) =>
    Object.entries(r.statuses).reduce((sum, [status, count]) => sum + (status === '200' ? 0 : count), 0);
  const serialCount = Math.min(50, LOGINS);
  console.log('');
  console.log(`POST /api/login c=1: ${verdict.samples('POST /api/login c=1', serialLogins.latencies.length, serialCount)}, not 200: ${verdict.check('POST /api/login c=1 answers not 200', notOk(serialLogins), { max: 0 })}`);
  console.log(`POST /api/login c=${LOGIN_CONCURRENCY}: ${verdict.samples(`POST /api/login c=${LOGIN_CONCURRENCY}`, logins.latencies.length, LOGINS)}, not 200: ${verdict.check(`POST /api/login c=${LOGIN_CONCURRENCY} answers not 200`, notOk(logins), { max: 0 })}`);
  console.log(`GET /api/player/balance c=${CONNECTIONS}: ${verdict.samples(`GET /api/player/balance c=${CONNECTIONS}`, balance.latencies.length, CONNECTIONS * BALANCE_MIN_PER_CONNECTION)}, not 200: ${verdict.check(`GET /api/player/balance c=${CONNECTIONS} answers not 200`, notOk(balance), { max: 0 })}`);
  console.log('(no latency or throughput goals: the figures above are reported, not judged)');

  await app.close();
  await ctx.db.end();
} catch (error) {
  console.error(`Benchmark failed: ${(error as Error).message}`);
  verdict.missing('login benchmark', (error as Error).message);
} finally {
  await embedded.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
// Explicit, so an open handle (a pool, a socket) cannot keep the process or hide the result.
verdict.finish();
process.exit(process.exitCode ?? 0);
