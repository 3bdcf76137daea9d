/**
 * The long fault-fuzzing run (issue 9): the same schema-driven fuzzer as test/fuzz.test.ts, with
 * more requests, against a real server on 127.0.0.1 over a throw-away database (a fresh database on
 * DATABASE_URL's server, else an embedded PostgreSQL). Prints requests per endpoint, statuses seen,
 * WebSocket messages, error and close codes, and every failure; exits 1 when there was any.
 *
 *   npx tsx apps/server/bench/fuzz.ts [--per-endpoint 200] [--sockets 20] [--per-socket 30] [--seed N]
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres/embedded.js';
import { seedDemo } from '../src/demo/seed.js';
import { buildApp, createContext } from '../src/server.js';
import { fuzz } from '../test/fuzz/fuzzer.js';
import { formatReport } from '../test/fuzz/report.js';
import { judgeAfterRun } from '../test/fuzz/verdict.js';
import { fuzzTarget, useFakeCabinets } from '../test/fuzz/target.js';
import { benchConfig, benchDir } from './bench-kit.js';

const { values } = parseArgs({
  options: {
    'per-endpoint': { type: 'string', default: '200' },
    sockets: { type: 'string', default: '20' },
    'per-socket': { type: 'string', default: '30' },
    seed: { type: 'string' },
  },
});
const seed = values.seed === undefined ? crypto.randomInt(2 ** 31) : Number(values.seed);

const dir = benchDir('fuzz');
let databaseUrl: string;
let stopDatabase: () => Promise<void>;
if (process.env.DATABASE_URL) {
  const name = `reel_fuzz_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  console.log(`Fuzzing over a throw-away database ${name} on ${url.host} (DATABASE_URL)`);
  stopDatabase = async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
} else {
  console.log(`Starting an embedded PostgreSQL in ${dir} ...`);
  const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'));
  databaseUrl = embedded.url;
  stopDatabase = () => embedded.stop();
}

let failed = true;
try {
  const config = benchConfig(dir);
  config.media.enabled = false;
  config.demoCabinets = false;
  // The fuzzer guesses passwords at full speed: keep the demo account and the limits out of the way.
  config.login.maxFailures = 1_000_000;
  config.login.rateLimitPerMinute = 1_000_000;
  config.ws.initTimeoutMs = 1_000;
  const ctx = await createContext(config, databaseUrl);
  await seedDemo(ctx.db, config.dataDir);
  const machineIds = await useFakeCabinets(ctx);
  const app = await buildApp(ctx, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const started = Date.now();
  try {
    const report = await fuzz(await fuzzTarget(app, ctx, machineIds), {
      perEndpoint: Number(values['per-endpoint']),
      sockets: Number(values.sockets),
      perSocket: Number(values['per-socket']),
      seed,
    });
    await judgeAfterRun(ctx.db, report);
    console.log('');
    console.log(formatReport(report));
    console.log(`${((Date.now() - started) / 1000).toFixed(1)} s; replay with --seed ${seed}`);
    failed = report.failures.length > 0;
  } finally {
    await app.close();
    await ctx.sessions.stop();
    await ctx.db.end();
  }
} finally {
  await stopDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
