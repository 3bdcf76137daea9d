/**
 * The hash chain of the audit trail: each row's hash is SHA-256(prev_hash ‖ canonical JSON of the
 * row), the canonical form being RFC 8785 (JCS: sorted keys, one spelling per number), so the same
 * row always hashes the same wherever it is checked.
 */
import crypto from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// CommonJS whose types declare an ES default export: at run time the default import is the function.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

/** The prev_hash of the first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** What a row's hash covers: every column but the two hashes. */
interface AuditFields {
  seq: number;
  /** ISO 8601 with milliseconds, UTC (what `Date.toISOString` writes). */
  at: string;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  reason: string;
}

export interface ChainedRow extends AuditFields {
  prev_hash: string;
  hash: string;
}

export function rowHash(prevHash: string, row: AuditFields): string {
  const canonical = canonicalize({
    seq: row.seq,
    at: row.at,
    actor: row.actor,
    action: row.action,
    target: row.target,
    before: row.before ?? null,
    after: row.after ?? null,
    reason: row.reason,
  });
  return crypto.createHash('sha256').update(prevHash).update(canonical ?? '').digest('hex');
}

/**
 * A value as the database's jsonb gives it back: plain JSON (no undefined, Dates as strings), so
 * the hash written is the hash a verifier computes from the stored row.
 */
export function asStoredJson(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}
