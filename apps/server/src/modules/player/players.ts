/** Creating and changing player accounts; shared by the operator CLI, the seed and the API. */
import { Code, LOGIN_MIN_LENGTH } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/passwords.js';
import { openWallet } from '../ledger/ledger.js';

interface NewPlayer {
  username: string;
  email: string;
  password: string;
  name?: string;
  lastname?: string;
  pin?: string;
  roles?: string[];
}

/** Must run inside a transaction so the player and its wallet appear together. */
export async function createPlayer(tx: Queryable, input: NewPlayer): Promise<number> {
  if (!/^[A-Za-z0-9_.-]{3,32}$/.test(input.username)) {
    throw new AppError(Code.InvalidRequest, 400, {}, 'username: 3-32 letters, digits, _ . -');
  }
  if (!/^[^@\s]+@[^@\s]+$/.test(input.email)) throw new AppError(Code.InvalidRequest, 400, {}, 'email is not valid');
  if (input.password.length < LOGIN_MIN_LENGTH) throw new AppError(Code.PasswordTooShort, 400);
  const existing = await tx.query('SELECT 1 FROM players WHERE lower(username) = lower($1) OR lower(email) = lower($2)', [
    input.username,
    input.email,
  ]);
  if (existing.rowCount) throw new AppError(Code.InvalidRequest, 409, {}, 'username or email already taken');
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO players (username, email, name, lastname, password_hash, password_changed_at, pin_hash, roles)
     VALUES ($1, $2, $3, $4, $5, now(), $6, $7) RETURNING id`,
    [
      input.username,
      input.email,
      input.name ?? '',
      input.lastname ?? '',
      await hashSecret(input.password),
      input.pin ? await hashSecret(input.pin) : null,
      input.roles ?? ['user'],
    ],
  );
  const id = rows[0]!.id;
  await openWallet(tx, id);
  return id;
}

export async function findPlayerId(db: Queryable, usernameOrEmail: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'SELECT id FROM players WHERE lower(username) = lower($1) OR lower(email) = lower($1)',
    [usernameOrEmail],
  );
  if (!rows[0]) throw new AppError(Code.NotFound, 404, {}, `no player "${usernameOrEmail}"`);
  return rows[0].id;
}
