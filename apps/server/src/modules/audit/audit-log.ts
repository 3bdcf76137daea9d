/**
 * The one way to write the audit trail: `appendAudit(tx, entry)` inside the transaction of the
 * action it records, so the row exists exactly when the action does. A transaction-scoped advisory
 * lock makes appends one at a time (no two rows with the same prev_hash, no gap in seq); it is held
 * until the caller's commit or rollback. Call it last in the transaction, after the rows the action
 * locks: the trail's lock is then held only for the commit, and no two transactions can wait on
 * each other's locks in opposite order.
 */
import type { Queryable } from '../../db/pool.js';
import { asStoredJson, GENESIS_HASH, rowHash, type ChainedRow } from './audit-chain.js';
import { AUDIT_LOCK_ID, AUDIT_SIGN_EVERY, auditKey, insertSignedHead, lastSignedSeq } from './audit-signing.js';

interface AuditEntry {
  /** `operator:<username>`, `cli:<os user>`, or `system`. */
  actor: string;
  /** Dotted verb, e.g. `player.deposit`. */
  action: string;
  /** What was acted on, e.g. `player:3`. */
  target: string;
  before?: unknown;
  after?: unknown;
  reason: string;
}

export async function appendAudit(tx: Queryable, entry: AuditEntry): Promise<ChainedRow> {
  const key = auditKey();
  await tx.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK_ID]);
  const { rows } = await tx.query<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
  const previous = rows[0] ?? { seq: 0, hash: GENESIS_HASH };
  const fields = {
    seq: previous.seq + 1,
    at: new Date().toISOString(),
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    before: asStoredJson(entry.before),
    after: asStoredJson(entry.after),
    reason: entry.reason,
  };
  const row: ChainedRow = { ...fields, prev_hash: previous.hash, hash: rowHash(previous.hash, fields) };
  await tx.query(
    `INSERT INTO audit_log (seq, at, actor, action, target, before, after, reason, prev_hash, hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [row.seq, row.at, row.actor, row.action, row.target, JSON.stringify(row.before), JSON.stringify(row.after), row.reason, row.prev_hash, row.hash],
  );
  if (row.seq - (await lastSignedSeq(tx)) >= AUDIT_SIGN_EVERY) await insertSignedHead(tx, key, row);
  return row;
}
