/**
 * The grants half of "append-only": where the application runs as an ordinary role that owns the
 * schema (DATABASE_URL, not the embedded superuser), it cannot change the trail even after it
 * disabled the triggers on its own tables: migration 012 took UPDATE, DELETE and TRUNCATE away
 * from it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createPool, withTransaction, type Db } from '../../db/pool.js';
import { migrate } from '../../db/migrate.js';
import { appendAudit } from './audit-log.js';
import { loadProcessAuditKey } from './audit-signing.js';

const suffix = crypto.randomBytes(4).toString('hex');
const name = `${inject('pgDatabasePrefix')}grants_${suffix}`;
const password = crypto.randomBytes(12).toString('hex');
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-audit-grants-'));
let app: Db;

async function asAdmin(sql: string) {
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  await asAdmin(`CREATE ROLE ${name} LOGIN NOSUPERUSER PASSWORD '${password}'`);
  await asAdmin(`CREATE DATABASE ${name} OWNER ${name} TEMPLATE template0`);
  const url = new URL(inject('pgAdminUrl'));
  url.username = name;
  url.password = password;
  url.pathname = `/${name}`;
  app = createPool(url.toString(), 2);
  await migrate(app);
  loadProcessAuditKey({ auditKeyFile: path.join(keyDir, 'key.pem') });
});
afterAll(async () => {
  await app?.end();
  await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await asAdmin(`DROP ROLE IF EXISTS ${name}`);
  fs.rmSync(keyDir, { recursive: true, force: true });
});

it('the owning application role may append, but not update, delete or truncate, even with its triggers off', async () => {
  await withTransaction(app, (tx) => appendAudit(tx, { actor: 'system', action: 'test', target: 'x:1', reason: 'grants' }));
  await app.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
  for (const sql of ["UPDATE audit_log SET reason = 'edited'", 'DELETE FROM audit_log', 'TRUNCATE audit_log', 'DELETE FROM audit_heads'])
    await expect(app.query(sql), sql).rejects.toMatchObject({ code: '42501' });
  expect((await app.query('SELECT count(*)::int AS n FROM audit_log')).rows[0]).toEqual({ n: 1 });
});
