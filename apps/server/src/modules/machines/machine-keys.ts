/**
 * Machine agent keys. Keys are 32 random bytes, so a fast hash is enough (no dictionary to guess
 * from); only the hash is stored.
 */
import crypto from 'node:crypto';
import type { Queryable } from '../../db/pool.js';

export const newMachineKey = () => crypto.randomBytes(32).toString('base64url');
export const hashMachineKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex');

export async function verifyMachineKey(db: Queryable, machineId: number, key: string): Promise<boolean> {
  if (!Number.isInteger(machineId) || typeof key !== 'string' || key.length > 200) return false;
  const { rows } = await db.query<{ key_hash: string }>('SELECT key_hash FROM machines WHERE id = $1 AND enabled', [machineId]);
  const stored = rows[0]?.key_hash;
  if (!stored) return false;
  const given = Buffer.from(hashMachineKey(key), 'hex');
  return crypto.timingSafeEqual(given, Buffer.from(stored, 'hex'));
}
