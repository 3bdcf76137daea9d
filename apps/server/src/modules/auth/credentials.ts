/**
 * Guessing protection for every route that checks a player's password or PIN: sign-in, change
 * password, set PIN (needs the password) and the idle lock's PIN check. All of them share
 *
 * - one per-account failure counter that blocks the account for LOGIN_BLOCK_MINUTES after
 *   LOGIN_MAX_FAILURES wrong secrets in a row (kept in the database, so a restart does not lift it;
 *   a stolen token therefore gets no more guesses than a sign-in form), and
 * - one per-IP rate limit of LOGIN_RATE_LIMIT_PER_MINUTE requests over all of those routes.
 */
import fp from 'fastify-plugin';
import type { preHandlerAsyncHookHandler } from 'fastify';
import { Code, LogType } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { verifySecret } from '../../lib/passwords.js';
import { writeAuthLog } from './auth-log.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-IP rate limit shared by the routes that check a password or PIN (an onRequest hook). */
    credentialRateLimit: preHandlerAsyncHookHandler;
  }
}

export const credentialRateLimitPlugin = fp<{ perMinute: number }>(
  async (app, { perMinute }) => {
    // One limiter instance, so every route that uses it counts into the same per-IP bucket.
    app.decorate('credentialRateLimit', app.rateLimit({ max: perMinute, timeWindow: '1 minute' }));
  },
  { name: 'credential-rate-limit', dependencies: ['@fastify/rate-limit'] },
);

/** What the lockout needs to know of the player, as read with the secret's hash. */
export interface LockoutState {
  id: number;
  failed_logins: number;
  blocked_until: Date | null;
}

export const LOCKOUT_COLUMNS = 'failed_logins, blocked_until';

interface SecretAttempt {
  player: LockoutState;
  /** The stored argon2 hash (null: no such secret set, every attempt is wrong). */
  hash: string | null | undefined;
  secret: string;
  ip: string;
  username?: string;
  /** What the auth log notes about a failure, e.g. `{ via: 'change password' }`. */
  detail?: object;
  /** The sign-in's site_id, for the auth log (sign-in only). */
  siteId?: number;
  /** The answer to a wrong secret that did not block the account yet. */
  wrong: (params: { left_count: number; block_time: number }) => AppError;
  /** Another kind of account (operators): its table and its own log. Default: players and auth_log. */
  account?: { table: 'operators'; log: (type: LogType) => Promise<void> };
}

/**
 * Checks a secret under the lockout. A blocked account is refused (10702) even with the right
 * secret; a wrong one counts, and the failure that reaches the limit blocks the account (10702);
 * earlier ones answer `attempt.wrong` with the attempts left. The right one resets the counter.
 */
/** The lockout's limits (LOGIN_MAX_FAILURES, LOGIN_BLOCK_MINUTES). */
export interface LockoutPolicy {
  maxFailures: number;
  blockMinutes: number;
}

export async function checkSecretWithLockout(
  ctx: { db: Queryable; config: { login: LockoutPolicy } },
  attempt: SecretAttempt,
): Promise<void> {
  const { db, config } = ctx;
  const { player, ip, username, detail, siteId } = attempt;
  const table = attempt.account?.table ?? 'players';
  const log =
    attempt.account?.log ?? ((type: LogType) => writeAuthLog(db, { playerId: player.id, username, type, ip, detail, siteId }));
  const blocked = () => new AppError(Code.LoginBlocked, 403, { block_time: config.login.blockMinutes });
  if (player.blocked_until && player.blocked_until > new Date()) {
    await log(LogType.TemporaryBlocked);
    throw blocked();
  }
  if (await verifySecret(attempt.hash, attempt.secret)) {
    if (player.failed_logins > 0)
      await db.query(`UPDATE ${table} SET failed_logins = 0 WHERE id = $1`, [player.id]);
    return;
  }
  // One statement, so parallel wrong attempts count exactly.
  const counted = await db.query<{ failed_logins: number; blocked: boolean }>(
    `UPDATE ${table}
        SET failed_logins = CASE WHEN failed_logins + 1 >= $2 THEN 0 ELSE failed_logins + 1 END,
            blocked_until = CASE WHEN failed_logins + 1 >= $2 THEN now() + make_interval(mins => $3)
                                 ELSE blocked_until END
      WHERE id = $1
      RETURNING failed_logins, coalesce(blocked_until > now(), false) AS blocked`,
    [player.id, config.login.maxFailures, config.login.blockMinutes],
  );
  const row = counted.rows[0]!;
  if (row.blocked) {
    await log(LogType.TemporaryBlocked);
    throw blocked();
  }
  await log(LogType.LoginFail);
  throw attempt.wrong({
    left_count: config.login.maxFailures - row.failed_logins,
    block_time: config.login.blockMinutes,
  });
}
