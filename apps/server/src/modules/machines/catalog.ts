/** Brands and machines: operator-side creation shared by the CLI and the seed. */
import type { Queryable } from '../../db/pool.js';
import { openMachineAccount } from '../ledger/ledger.js';
import { hashMachineKey, newMachineKey } from './machine-keys.js';

export async function createBrand(tx: Queryable, input: { name: string; image?: string; jackpotSeedsCents?: number[] }) {
  const { rows } = await tx.query<{ id: number }>('INSERT INTO brands (name, image) VALUES ($1, $2) RETURNING id', [
    input.name,
    input.image ?? null,
  ]);
  const id = rows[0]!.id;
  const seeds = input.jackpotSeedsCents ?? [];
  await tx.query(
    `INSERT INTO jackpots (brand_id, level, seed_cents, amount_cents)
     SELECT $1, level, seed, seed FROM unnest($2::bigint[]) WITH ORDINALITY AS s(seed, level)`,
    [id, seeds],
  );
  return id;
}

/** Returns the new machine's id and its agent key (shown once; only the hash is kept). */
export async function createMachine(
  tx: Queryable,
  input: { brandId: number; name: string; image?: string; videoType?: 'screen' | 'camera'; handpayLimitCents?: number; reservation?: boolean },
) {
  const key = newMachineKey();
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO machines (brand_id, name, image, video_type, key_hash, handpay_limit_cents, reservation)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      input.brandId,
      input.name,
      input.image ?? null,
      input.videoType ?? 'screen',
      hashMachineKey(key),
      input.handpayLimitCents ?? 1_000_000,
      input.reservation ?? false,
    ],
  );
  const id = rows[0]!.id;
  await openMachineAccount(tx, id);
  return { id, key };
}

/** Issues a new agent key for a machine (e.g. when the demo keys file was lost). */
export async function rotateMachineKey(db: Queryable, machineId: number) {
  const key = newMachineKey();
  await db.query('UPDATE machines SET key_hash = $2 WHERE id = $1', [machineId, hashMachineKey(key)]);
  return key;
}
