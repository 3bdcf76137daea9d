/**
 * One PostgreSQL for the whole server test run: TEST_DATABASE_URL (any server, e.g. CI's system
 * PostgreSQL) or else a throw-away embedded one. A migrated template database makes each test
 * file's own database a cheap copy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres/embedded.js';
import { createPool } from '../src/db/pool.js';
import { migrate } from '../src/db/migrate.js';

/**
 * Every database of a run carries the run's id (`reel_t_<start second>_<pid>…`), so runs sharing one
 * PostgreSQL (engineers, CI) never drop each other's databases; leftovers of runs that started more
 * than two hours ago are dropped.
 */
const STALE_AFTER_S = 2 * 3600;
const runId = `${Math.floor(Date.now() / 1000)}_${process.pid}`;
const templateName = `reel_t_${runId}_template`;

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    /** Prefix of this run's databases; the migrated template is `${prefix}template`. */
    pgDatabasePrefix: string;
  }
}

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL ?? '';
  let stop = async () => {};
  if (adminUrl) {
    console.log(`[server tests] using PostgreSQL at ${new URL(adminUrl).host} (TEST_DATABASE_URL)`);
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-test-pg-'));
    // As root, postgres runs as its own system user, which must reach the data directory.
    fs.chmodSync(dir, 0o755);
    const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'));
    adminUrl = embedded.url;
    stop = async () => {
      await embedded.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
    console.log('[server tests] using an embedded PostgreSQL');
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const all = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'reel\\_t\\_%'");
  const nowS = Math.floor(Date.now() / 1000);
  for (const { datname } of all.rows) {
    const startedS = Number(/^reel_t_(\d+)_/.exec(datname)?.[1] ?? 0);
    if (nowS - startedS > STALE_AFTER_S) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
  await admin.query(`CREATE DATABASE ${templateName}`);
  const templatePool = createPool(withDatabase(adminUrl, templateName), 2);
  await migrate(templatePool);
  await templatePool.end();
  await admin.end();
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgDatabasePrefix', `reel_t_${runId}_`);
  return async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    const mine = await cleanup.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [`reel_t_${runId}_`]);
    for (const { datname } of mine.rows) await cleanup.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await cleanup.end();
    await stop();
  };
}
