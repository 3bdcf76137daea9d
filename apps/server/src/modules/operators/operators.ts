/** Operator accounts (table `operators`): apart from players, with role admin or staff. */
import { Code, OperatorRole, OperatorStatus, type OperatorView } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/passwords.js';

const OPERATOR_MIN_PASSWORD = 8;

export interface OperatorRow {
  id: number;
  username: string;
  role: OperatorRole;
  status: OperatorStatus;
  created_at: Date;
  last_login_at: Date | null;
}

export const OPERATOR_COLUMNS = 'id, username, role, status, created_at, last_login_at';

export const operatorView = (row: OperatorRow): OperatorView => ({
  id: row.id,
  username: row.username,
  role: row.role,
  status: row.status,
  created_at: row.created_at.toISOString(),
  last_login_at: row.last_login_at?.toISOString() ?? null,
});

export async function createOperator(
  tx: Queryable,
  input: { username: string; password: string; role: string },
): Promise<OperatorRow> {
  if (!/^[A-Za-z0-9._-]{3,64}$/.test(input.username))
    throw new AppError(Code.InvalidRequest, 400, {}, 'username: 3-64 letters, digits, _ . -');
  if (!Object.values<string>(OperatorRole).includes(input.role))
    throw new AppError(Code.InvalidRequest, 400, {}, 'role must be admin or staff');
  if (input.password.length < OPERATOR_MIN_PASSWORD) throw new AppError(Code.PasswordTooShort, 400);
  const taken = await tx.query('SELECT 1 FROM operators WHERE lower(username) = lower($1)', [input.username]);
  if (taken.rowCount) throw new AppError(Code.UsernameTaken, 409);
  const { rows } = await tx.query<OperatorRow>(
    `INSERT INTO operators (username, password_hash, role) VALUES ($1, $2, $3) RETURNING ${OPERATOR_COLUMNS}`,
    [input.username, await hashSecret(input.password), input.role],
  );
  return rows[0]!;
}

/** The operator with `id`, locked for the caller's transaction when `forUpdate`; 404 when none. */
export async function findOperator(db: Queryable, id: number, forUpdate = false): Promise<OperatorRow> {
  const { rows } = await db.query<OperatorRow>(
    `SELECT ${OPERATOR_COLUMNS} FROM operators WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (!rows[0]) throw new AppError(Code.NotFound, 404, {}, `no operator ${id}`);
  return rows[0];
}

export async function listOperators(db: Queryable): Promise<OperatorRow[]> {
  return (await db.query<OperatorRow>(`SELECT ${OPERATOR_COLUMNS} FROM operators ORDER BY id`)).rows;
}

export async function updateOperator(tx: Queryable, id: number, change: { role?: OperatorRole; status?: OperatorStatus }) {
  const { rows } = await tx.query<OperatorRow>(
    `UPDATE operators SET role = coalesce($2, role), status = coalesce($3, status) WHERE id = $1 RETURNING ${OPERATOR_COLUMNS}`,
    [id, change.role ?? null, change.status ?? null],
  );
  return rows[0]!;
}
