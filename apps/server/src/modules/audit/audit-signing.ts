/**
 * Signed heads of the audit trail. The key is an Ed25519 pair kept outside the database (a file in
 * DATA_DIR, or AUDIT_KEY_FILE), so someone who can rewrite every table still cannot sign a forged
 * head: a signed (seq, hash) pins every row up to seq, and the highest signed seq shows a cut tail.
 * The head is signed inside the appending transaction once AUDIT_SIGN_EVERY rows are unsigned, and
 * by a timer at least every AUDIT_SIGN_INTERVAL_MS while rows are unsigned. The timer also copies
 * the newest signed head to a witness file beside the key, so cutting the trail's tail together
 * with the tail of `audit_heads` is still seen.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { auditKeyFileIn } from '../../config.js';
import { withTransaction, type Db, type Queryable } from '../../db/pool.js';

export const AUDIT_SIGN_EVERY = 10;
const AUDIT_SIGN_INTERVAL_MS = 60_000;
/** The transaction-scoped advisory lock every writer of the trail takes first: one writer at a time. */
export const AUDIT_LOCK_ID = 727_012;

export interface AuditKey {
  privateKey: crypto.KeyObject;
  publicKey: crypto.KeyObject;
  /** First 16 hex digits of the SHA-256 of the public key: which key signed a head. */
  keyId: string;
}

function keyFromPem(pem: string): AuditKey {
  const privateKey = crypto.createPrivateKey(pem);
  const publicKey = crypto.createPublicKey(privateKey);
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return { privateKey, publicKey, keyId: crypto.createHash('sha256').update(der).digest('hex').slice(0, 16) };
}

/** The key in `file`, created (mode 600) on first use. */
export function loadAuditKey(file: string): AuditKey {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const { privateKey } = crypto.generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // Written aside, then linked in: the link fails when another process created the key first, and
    // nobody ever reads a half-written file.
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, pem, { mode: 0o600 });
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(temporary);
    }
  }
  return keyFromPem(fs.readFileSync(file, 'utf8'));
}

/** The key appendAudit signs with; set once at start by loadProcessAuditKey. */
let processKey: AuditKey | undefined;

/**
 * Every process that writes the trail (a server, the operator CLI, the fault suite's operator, a
 * test's helper process) starts with this: the key its configuration names (AUDIT_KEY_FILE, or the
 * data folder's), created when missing, becomes the one appendAudit signs with. One way in, so the
 * callers cannot drift apart (the fault suite once wrote rows with no key loaded).
 */
export function loadProcessAuditKey(source: { auditKeyFile: string } | { dataDir: string }): AuditKey {
  processKey = loadAuditKey('auditKeyFile' in source ? source.auditKeyFile : auditKeyFileIn(source.dataDir));
  return processKey;
}

export function auditKey(): AuditKey {
  if (!processKey) throw new Error('the audit signing key is not loaded (loadProcessAuditKey)');
  return processKey;
}

const signedText = (seq: number, hash: string, signedAt: string) => `reel-audit-head\n${seq}\n${hash}\n${signedAt}`;

export function headSignatureValid(key: AuditKey, head: { seq: number; hash: string; signed_at: string; signature: string }) {
  try {
    return crypto.verify(null, Buffer.from(signedText(head.seq, head.hash, head.signed_at)), key.publicKey, Buffer.from(head.signature, 'base64'));
  } catch {
    return false;
  }
}

/** Signs the given head; the caller holds the audit lock in `tx`. */
export async function insertSignedHead(tx: Queryable, key: AuditKey, head: { seq: number; hash: string }) {
  const signedAt = new Date().toISOString();
  const signature = crypto.sign(null, Buffer.from(signedText(head.seq, head.hash, signedAt)), key.privateKey).toString('base64');
  await tx.query('INSERT INTO audit_heads (seq, hash, signed_at, key_id, signature) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (seq) DO NOTHING', [
    head.seq,
    head.hash,
    signedAt,
    key.keyId,
    signature,
  ]);
}

export async function lastSignedSeq(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ seq: number | null }>('SELECT max(seq)::bigint AS seq FROM audit_heads');
  return rows[0]?.seq ?? 0;
}

/** Signs the current head if rows were appended since the last signature; true when it signed. */
export async function signAuditHead(db: Db, key: AuditKey): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK_ID]);
    const { rows } = await tx.query<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1');
    const head = rows[0];
    if (!head || head.seq <= (await lastSignedSeq(tx))) return false;
    await insertSignedHead(tx, key, head);
    return true;
  });
}

export interface SignedHead {
  seq: number;
  hash: string;
  signed_at: string;
  key_id: string;
  signature: string;
}

/** The newest signed head of `audit_heads`, as the verifier and the witness file hold it. */
async function newestSignedHead(db: Queryable): Promise<SignedHead | null> {
  const { rows } = await db.query<Omit<SignedHead, 'signed_at'> & { signed_at: Date }>(
    'SELECT seq, hash, signed_at, key_id, signature FROM audit_heads ORDER BY seq DESC LIMIT 1',
  );
  return rows[0] ? { ...rows[0], signed_at: rows[0].signed_at.toISOString() } : null;
}

/** The witness file of the key in `keyFile`: the newest signed head, kept outside the database. */
export const witnessFileOf = (keyFile: string) => path.join(path.dirname(keyFile), 'audit-head.json');

/** Copies the newest committed signed head to `file` (replaced whole, never half-written). */
export async function writeHeadWitness(db: Queryable, file: string): Promise<void> {
  const head = await newestSignedHead(db);
  if (!head) return;
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(head), { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/** The witness file's head, or null when there is none (a fresh data folder). */
export function readHeadWitness(file: string): SignedHead | null {
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as SignedHead;
}

/** Signs the head every `intervalMs` while rows are unsigned, then updates the witness; returns the stop function. */
export function startAuditSigner(
  db: Db,
  key: AuditKey,
  witnessFile: string,
  onError: (error: unknown) => void,
  intervalMs = AUDIT_SIGN_INTERVAL_MS,
) {
  const tick = async () => {
    await signAuditHead(db, key);
    await writeHeadWitness(db, witnessFile);
  };
  const timer = setInterval(() => void tick().catch(onError), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
