/**
 * The audit trail's verifier (`npm run operator -- verify-audit`, `GET /api/admin/audit/verify`):
 * walks the chain from seq 1 and checks each row's seq (no gap), prev_hash (no fork) and hash (no
 * edit), then every signed head: its signature under the key outside the database, and that the
 * row it names still exists with the hash it signed. A superuser who edits a row and recomputes
 * every hash after it is caught by the first signed head past the edit; one who cuts the tail (even
 * with the triggers disabled) by the highest signed head, which names a row no longer there.
 */
import type { Queryable } from '../../db/pool.js';
import { GENESIS_HASH, rowHash, type ChainedRow } from './audit-chain.js';
import { headSignatureValid, type AuditKey, type SignedHead } from './audit-signing.js';

interface AuditVerification {
  ok: boolean;
  rows: number;
  head_seq: number;
  signed_seq: number;
  first_bad_seq: number | null;
  problem: string | null;
}

const BATCH = 1000;

interface StoredRow extends Omit<ChainedRow, 'at'> {
  at: Date;
}

/** The first break of the chain itself, or null; also the hash of every row, for the heads' check. */
async function walkChain(db: Queryable, hashes: Map<number, string>) {
  let expected = 1;
  let prevHash = GENESIS_HASH;
  for (;;) {
    const { rows } = await db.query<StoredRow>(
      'SELECT seq, at, actor, action, target, before, after, reason, prev_hash, hash FROM audit_log WHERE seq >= $1 ORDER BY seq LIMIT $2',
      [expected, BATCH],
    );
    for (const row of rows) {
      if (row.seq !== expected) return { seq: expected, problem: `row ${expected} is missing (the next row is ${row.seq})` };
      if (row.prev_hash !== prevHash) return { seq: row.seq, problem: `row ${row.seq} does not follow row ${row.seq - 1} (prev_hash differs)` };
      const computed = rowHash(prevHash, { ...row, at: row.at.toISOString() });
      if (computed !== row.hash) return { seq: row.seq, problem: `row ${row.seq} was changed after it was written (its hash does not match its content)` };
      hashes.set(row.seq, row.hash);
      prevHash = row.hash;
      expected++;
    }
    if (rows.length < BATCH) return null;
  }
}

/**
 * `witness`: the newest signed head as the witness file outside the database kept it; it counts as
 * one more signed head, so a trail cut back together with its signed heads is still caught.
 */
export async function verifyAudit(db: Queryable, key: AuditKey, witness: SignedHead | null = null): Promise<AuditVerification> {
  const hashes = new Map<number, string>();
  const { rows: counts } = await db.query<{ rows: number; head: number | null }>('SELECT count(*)::int AS rows, max(seq)::bigint AS head FROM audit_log');
  const rows = counts[0]!.rows;
  const headSeq = counts[0]!.head ?? 0;
  const chainBreak = await walkChain(db, hashes);
  const lastGood = chainBreak ? chainBreak.seq - 1 : headSeq;

  const { rows: stored } = await db.query<Omit<SignedHead, 'signed_at'> & { signed_at: Date }>(
    'SELECT seq, hash, signed_at, key_id, signature FROM audit_heads ORDER BY seq',
  );
  const heads: SignedHead[] = stored.map((head) => ({ ...head, signed_at: head.signed_at.toISOString() }));
  if (witness && !heads.some((head) => head.seq === witness.seq)) heads.push(witness);
  heads.sort((a, b) => a.seq - b.seq);
  let signedSeq = 0;
  let headBreak: { seq: number; problem: string } | null = null;
  for (const head of heads) {
    const valid = headSignatureValid(key, head);
    if (!valid) {
      headBreak = { seq: head.seq, problem: `the signed head at ${head.seq} does not verify with this key (${key.keyId}; signed by ${head.key_id})` };
      break;
    }
    if (head.seq > headSeq) {
      headBreak = { seq: headSeq + 1, problem: `rows from ${headSeq + 1} are missing: a head signed at ${head.seq} says the trail reached ${head.seq}` };
      break;
    }
    // Rows past a chain break were not hashed; the chain's own break is reported first then.
    if (head.seq <= lastGood && hashes.get(head.seq) !== head.hash) {
      headBreak = { seq: signedSeq + 1, problem: `rows after ${signedSeq} were rewritten: row ${head.seq} no longer has the hash signed for it` };
      break;
    }
    signedSeq = head.seq;
  }
  const bad = [chainBreak, headBreak].filter((b) => b !== null).sort((a, b) => a.seq - b.seq)[0] ?? null;
  return {
    ok: bad === null,
    rows,
    head_seq: headSeq,
    signed_seq: signedSeq,
    first_bad_seq: bad?.seq ?? null,
    problem: bad?.problem ?? null,
  };
}
