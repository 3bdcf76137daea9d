/** The SQL behind the player's own account routes (profile, credentials, UI settings). */
import type { Queryable } from '../../db/pool.js';
import { LOCKOUT_COLUMNS, type LockoutState } from '../auth/credentials.js';

interface ProfileRow {
  id: number;
  name: string;
  lastname: string;
  email: string;
  username: string;
  group_name: string;
  permissions: string[];
  last_logon: Date | null;
  last_logon_ip: string | null;
  password_changed_at: Date | null;
  has_pin: boolean;
  settings: Record<string, unknown>;
  shortcuts: string[];
  password_expired: boolean;
}

export async function readProfile(db: Queryable, playerId: number, passwordMaxAgeDays: number): Promise<ProfileRow> {
  const { rows } = await db.query<ProfileRow>(
    `SELECT id, name, lastname, email, username, group_name, permissions, last_logon, last_logon_ip,
            password_changed_at, pin_hash IS NOT NULL AS has_pin, settings, shortcuts,
            (password_changed_at IS NULL OR password_changed_at < now() - make_interval(days => $2)) AS password_expired
       FROM players WHERE id = $1`,
    [playerId, passwordMaxAgeDays],
  );
  return rows[0]!;
}

type CredentialsRow = LockoutState & { password_hash: string; pin_hash: string | null; username: string };

/** What a password or PIN check needs, with the lockout counters it shares with the sign-in. */
export async function readCredentials(db: Queryable, playerId: number): Promise<CredentialsRow> {
  const { rows } = await db.query<CredentialsRow>(`SELECT id, username, password_hash, pin_hash, ${LOCKOUT_COLUMNS} FROM players WHERE id = $1`, [playerId]);
  return rows[0]!;
}

export async function setPasswordHash(db: Queryable, playerId: number, hash: string) {
  await db.query('UPDATE players SET password_hash = $2, password_changed_at = now() WHERE id = $1', [playerId, hash]);
}

export async function setPinHash(db: Queryable, playerId: number, hash: string) {
  await db.query('UPDATE players SET pin_hash = $2 WHERE id = $1', [playerId, hash]);
}

/** Stores the UI settings and shortcuts given (null keeps what is stored) and answers both. */
export async function updateUiSettings(db: Queryable, playerId: number, settings: object | undefined, shortcuts: string[] | undefined) {
  const { rows } = await db.query<{ settings: Record<string, unknown>; shortcuts: string[] }>(
    `UPDATE players SET settings = coalesce($2::jsonb, settings), shortcuts = coalesce($3::text[], shortcuts)
      WHERE id = $1 RETURNING settings, shortcuts`,
    [playerId, settings ? JSON.stringify(settings) : null, shortcuts ?? null],
  );
  return rows[0]!;
}
