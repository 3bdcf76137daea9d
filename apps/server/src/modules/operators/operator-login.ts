/** Operator sign-in: the players' lockout (credentials.ts) on the operators table, its own log. */
import { Code, LogType, OperatorStatus, type AdminLoginResponse } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { burnVerify } from '../../lib/passwords.js';
import { checkSecretWithLockout, type LockoutPolicy } from '../auth/credentials.js';
import { OPERATOR_COLUMNS, operatorView, type OperatorRow } from './operators.js';
import type { OperatorTokenService } from './operator-tokens.js';

async function writeOperatorLog(db: Queryable, entry: { operatorId: number | null; username: string; type: LogType; ip: string }) {
  await db.query('INSERT INTO operator_auth_log (operator_id, username, type, ip) VALUES ($1, $2, $3, $4)', [
    entry.operatorId,
    entry.username,
    entry.type,
    entry.ip,
  ]);
}

export async function operatorLogin(
  ctx: { db: Queryable; operatorTokens: OperatorTokenService; config: { login: LockoutPolicy } },
  input: { username: string; password: string; ip: string },
): Promise<AdminLoginResponse> {
  const { db } = ctx;
  const username = input.username.trim();
  const { ip } = input;
  const found = await db.query<OperatorRow & { password_hash: string; failed_logins: number; blocked_until: Date | null }>(
    `SELECT ${OPERATOR_COLUMNS}, password_hash, failed_logins, blocked_until FROM operators WHERE lower(username) = lower($1)`,
    [username],
  );
  const operator = found.rows[0];
  if (!operator) {
    await burnVerify(input.password);
    await writeOperatorLog(db, { operatorId: null, username, type: LogType.LoginFail, ip });
    throw new AppError(Code.LoginUnknownUser, 401);
  }
  const log = (type: LogType) => writeOperatorLog(db, { operatorId: operator.id, username, type, ip });
  await checkSecretWithLockout(ctx, {
    player: operator,
    hash: operator.password_hash,
    secret: input.password,
    ip,
    username,
    wrong: (params) => new AppError(Code.LoginIncorrect, 401, params),
    account: { table: 'operators', log },
  });
  if (operator.status !== OperatorStatus.Active) {
    await log(LogType.LoginNotAllowed);
    throw new AppError(Code.OperatorDisabled, 403);
  }
  const { rows } = await db.query<OperatorRow>(
    `UPDATE operators SET failed_logins = 0, blocked_until = NULL, last_login_at = now() WHERE id = $1 RETURNING ${OPERATOR_COLUMNS}`,
    [operator.id],
  );
  const token = await ctx.operatorTokens.issue(operator, ip);
  await log(LogType.LoginSuccess);
  return { status: true, code: Code.Success, token, operator: operatorView(rows[0]!) };
}
