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

export const TEMPLATE_DB = 'reel_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
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
  // Leftovers of an earlier run against a shared server.
  const stale = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'reel_t_%' OR datname = $1", [TEMPLATE_DB]);
  for (const { datname } of stale.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  const templatePool = createPool(withDatabase(adminUrl, TEMPLATE_DB), 2);
  await migrate(templatePool);
  await templatePool.end();
  await admin.end();
  project.provide('pgAdminUrl', adminUrl);
  return stop;
}
