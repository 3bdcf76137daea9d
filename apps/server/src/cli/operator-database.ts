/**
 * The operator's database: DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR,
 * the one a running server already has open or, when none runs, one started for this command and
 * stopped afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.js';
import { createPool, type Db } from '../db/pool.js';
import { migrate } from '../db/migrate.js';
import { startEmbeddedPostgres } from '../db/embedded-postgres/embedded.js';
import { loadProcessAuditKey } from '../modules/audit/audit-signing.js';

export interface OperatorDatabase {
  db: Db;
  close(): Promise<void>;
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function openOperatorDatabase(config: Config): Promise<OperatorDatabase> {
  // The same key the server signs the audit trail's heads with (DATA_DIR or AUDIT_KEY_FILE).
  loadProcessAuditKey(config);
  let url = config.databaseUrl;
  let stopEmbedded = async () => {};
  if (!url) {
    const dir = path.join(config.dataDir, 'pg');
    const portFile = `${dir}.port`;
    const port = fs.existsSync(portFile) ? Number(fs.readFileSync(portFile, 'utf8').trim()) : 0;
    const running = port > 0 && (await reachable(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`));
    if (running) {
      url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    } else {
      const embedded = await startEmbeddedPostgres(dir, { port: config.embeddedPgPort || undefined });
      url = embedded.url;
      stopEmbedded = () => embedded.stop();
    }
  }
  const db = createPool(url, 4);
  try {
    // A database nobody has started the server on yet still gets the schema.
    await migrate(db);
  } catch (error) {
    await db.end().catch(() => {});
    await stopEmbedded().catch(() => {});
    throw error;
  }
  return {
    db,
    async close() {
      await db.end().catch(() => {});
      await stopEmbedded().catch(() => {});
    },
  };
}
