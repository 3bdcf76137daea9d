/**
 * The audit trail: rows chain and are signed as written; UPDATE/DELETE/TRUNCATE are refused; and
 * the verifier names the first bad seq for each way a row can be tampered with, including by a
 * superuser who disabled the triggers and rewrote the hashes after an edit.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helper.js';
import { createPool, withTransaction, type Db } from '../../db/pool.js';
import { migrate } from '../../db/migrate.js';
import { rowHash } from './audit-chain.js';
import { appendAudit } from './audit-log.js';
import {
  AUDIT_SIGN_EVERY,
  loadProcessAuditKey,
  readHeadWitness,
  signAuditHead,
  startAuditSigner,
  witnessFileOf,
  writeHeadWitness,
  type AuditKey,
} from './audit-signing.js';
import { verifyAudit } from './audit-verify.js';

let db: Db;
let drop: () => Promise<void>;
let key: AuditKey;
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-audit-key-'));

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createPool(database.url, 4);
  await migrate(db);
  key = loadProcessAuditKey({ dataDir: keyDir });
});
afterAll(async () => {
  await db.end();
  await drop();
  fs.rmSync(keyDir, { recursive: true, force: true });
});

/** Runs `sql` as a superuser with the append-only triggers off, as a tamperer would. */
async function asTamperer(sql: string, params: unknown[] = []) {
  await withTransaction(db, async (tx) => {
    await tx.query('SET LOCAL session_replication_role = replica');
    await tx.query(sql, params);
  });
}

async function reset() {
  await asTamperer('DELETE FROM audit_log');
  await asTamperer('DELETE FROM audit_heads');
}

async function append(n: number) {
  for (let i = 0; i < n; i++)
    await withTransaction(db, (tx) =>
      appendAudit(tx, { actor: 'operator:admin', action: 'player.ban', target: `player:${i + 1}`, before: { banned: false }, after: { banned: true }, reason: `test ${i}` }),
    );
}

beforeEach(reset);

describe('appendAudit', () => {
  it('chains rows from seq 1 with no gap, each hash over the previous one, and signs every 10th', async () => {
    await append(25);
    const { rows } = await db.query<{ seq: number; prev_hash: string; hash: string }>('SELECT seq, prev_hash, hash FROM audit_log ORDER BY seq');
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
    const heads = await db.query<{ seq: number }>('SELECT seq FROM audit_heads ORDER BY seq');
    expect(heads.rows.map((h) => h.seq)).toEqual([AUDIT_SIGN_EVERY, 2 * AUDIT_SIGN_EVERY]);
    expect(await verifyAudit(db, key)).toMatchObject({ ok: true, rows: 25, head_seq: 25, signed_seq: 20, first_bad_seq: null });
    // The timer's signer covers the unsigned rest, and only once.
    expect(await signAuditHead(db, key)).toBe(true);
    expect(await signAuditHead(db, key)).toBe(false);
    expect(await verifyAudit(db, key)).toMatchObject({ ok: true, signed_seq: 25 });
  });

  it('leaves no row when the transaction it is in rolls back, and no gap after it', async () => {
    await append(1);
    await expect(
      withTransaction(db, async (tx) => {
        await appendAudit(tx, { actor: 'operator:admin', action: 'player.deposit', target: 'player:1', reason: 'fails' });
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    await append(1);
    const { rows } = await db.query<{ seq: number }>('SELECT seq FROM audit_log ORDER BY seq');
    expect(rows.map((r) => r.seq)).toEqual([1, 2]);
  });

  it('takes one writer at a time: parallel appends make one chain without forks', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, i) => withTransaction(db, (tx) => appendAudit(tx, { actor: 'system', action: 't', target: `x:${i}`, reason: 'parallel' }))));
    expect(await verifyAudit(db, key)).toMatchObject({ ok: true, rows: 12 });
  });
});

describe('the signing timer', () => {
  it('signs an unsigned head on its own and copies it to the witness file', async () => {
    const witness = path.join(keyDir, 'timer-witness.json');
    await append(3);
    const errors: unknown[] = [];
    const stop = startAuditSigner(db, key, witness, (error) => errors.push(error), 20);
    try {
      await expect.poll(() => readHeadWitness(witness)?.seq ?? 0, { timeout: 5_000 }).toBe(3);
    } finally {
      stop();
    }
    expect(errors).toEqual([]);
    expect(await verifyAudit(db, key, readHeadWitness(witness))).toMatchObject({ ok: true, signed_seq: 3 });
  });
});

describe('the database refuses changes', () => {
  it.each([
    ['UPDATE', "UPDATE audit_log SET reason = 'edited' WHERE seq = 1"],
    ['DELETE', 'DELETE FROM audit_log WHERE seq = 1'],
    ['TRUNCATE', 'TRUNCATE audit_log'],
    ['UPDATE of a head', "UPDATE audit_heads SET hash = 'x'"],
    ['TRUNCATE of the heads', 'TRUNCATE audit_heads'],
  ])('%s', async (_name, sql) => {
    await append(AUDIT_SIGN_EVERY);
    await expect(db.query(sql)).rejects.toThrow(/append-only/);
    expect(await verifyAudit(db, key)).toMatchObject({ ok: true });
  });
});

describe('verify-audit names the first bad seq', () => {
  beforeEach(() => append(25));

  it('an edited row', async () => {
    await asTamperer(`UPDATE audit_log SET after = '{"banned": false}' WHERE seq = 7`);
    expect(await verifyAudit(db, key)).toMatchObject({ ok: false, first_bad_seq: 7 });
  });

  it('an edited row whose hash and every later hash were recomputed (triggers disabled): the signed head catches it', async () => {
    await asTamperer(`UPDATE audit_log SET reason = 'nothing to see' WHERE seq = 13`);
    const { rows } = await db.query('SELECT seq, at, actor, action, target, before, after, reason FROM audit_log ORDER BY seq');
    let prev = (await db.query<{ hash: string }>('SELECT hash FROM audit_log WHERE seq = 12')).rows[0]!.hash;
    for (const row of rows.slice(12)) {
      const hash = rowHash(prev, { ...row, at: (row.at as Date).toISOString() });
      await asTamperer('UPDATE audit_log SET prev_hash = $2, hash = $3 WHERE seq = $1', [row.seq, prev, hash]);
      prev = hash;
    }
    const result = await verifyAudit(db, key);
    expect(result).toMatchObject({ ok: false, first_bad_seq: 11 });
    expect(result.problem).toMatch(/rewritten/);
  });

  it('a deleted row', async () => {
    await asTamperer('DELETE FROM audit_log WHERE seq = 4');
    expect(await verifyAudit(db, key)).toMatchObject({ ok: false, first_bad_seq: 4 });
  });

  it('a cut tail', async () => {
    await asTamperer('DELETE FROM audit_log WHERE seq > 15');
    const result = await verifyAudit(db, key);
    expect(result).toMatchObject({ ok: false, first_bad_seq: 16 });
    expect(result.problem).toMatch(/missing/);
  });

  it('the whole trail truncated with the triggers disabled', async () => {
    await asTamperer('TRUNCATE audit_log');
    expect(await verifyAudit(db, key)).toMatchObject({ ok: false, first_bad_seq: 1 });
  });

  it('the trail and its signed heads cut back together: the witness file outside the database catches it', async () => {
    const witness = witnessFileOf(path.join(keyDir, 'audit-signing-key.pem'));
    await signAuditHead(db, key);
    await writeHeadWitness(db, witness);
    await asTamperer('DELETE FROM audit_log WHERE seq > 15');
    await asTamperer('DELETE FROM audit_heads WHERE seq > 15');
    expect(await verifyAudit(db, key)).toMatchObject({ ok: true, head_seq: 15 });
    expect(await verifyAudit(db, key, readHeadWitness(witness))).toMatchObject({ ok: false, first_bad_seq: 16 });
  });

  it('a forged head signature', async () => {
    await asTamperer("UPDATE audit_heads SET signature = $1 WHERE seq = 20", [crypto.randomBytes(64).toString('base64')]);
    expect(await verifyAudit(db, key)).toMatchObject({ ok: false, first_bad_seq: 20 });
  });
});

describe('one writer', () => {
  it('only audit-log.ts writes audit_log and only audit-signing.ts writes audit_heads', () => {
    const src = path.resolve(import.meta.dirname, '../..');
    const files = (fs.readdirSync(src, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const writers = (table: string) =>
      files.filter((f) => new RegExp(`\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+${table}\\b`).test(fs.readFileSync(path.join(src, f), 'utf8')));
    expect(writers('audit_log')).toEqual([path.join('modules', 'audit', 'audit-log.ts')]);
    expect(writers('audit_heads')).toEqual([path.join('modules', 'audit', 'audit-signing.ts')]);
  });
});
