/**
 * Sign-in: password check under the shared lockout (credentials.ts: a per-account failure counter
 * that blocks the account for a while, kept in the database so a restart does not lift it),
 * IP/country policy, ban, and a log entry for every attempt.
 */
import { Code, LogType, UI_VERSION, type LoginResponse } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { burnVerify } from '../../lib/passwords.js';
import { writeAuthLog, type AuthLogEntry } from './auth-log.js';
import { checkSecretWithLockout, type LockoutPolicy } from './credentials.js';
import type { PlayerBreaks } from '../protection/player-breaks.js';
import type { PlayerIdentity, TokenService } from './tokens.js';

const SERVER_VERSION = '1.0.0';
const versionsString = () => `server ${SERVER_VERSION}; ui ${UI_VERSION}`;

interface PlayerRow extends PlayerIdentity {
  password_hash: string;
  pin_hash: string | null;
  banned: boolean;
  failed_logins: number;
  blocked_until: Date | null;
  last_logon: Date | null;
  last_logon_ip: string | null;
}

const PLAYER_IDENTITY_COLUMNS =
  'id, username, email, name, lastname, group_name, permissions, user_type, roles, photo_url';

/** The player a stored token names, with what the sign-in answer shows. */
export async function signedInPlayer(db: Queryable, playerId: number) {
  const { rows } = await db.query<PlayerIdentity & { pin_hash: string | null; last_logon: Date | null; last_logon_ip: string | null }>(
    `SELECT ${PLAYER_IDENTITY_COLUMNS}, pin_hash, last_logon, last_logon_ip FROM players WHERE id = $1`,
    [playerId],
  );
  return rows[0]!;
}

export async function login(
  ctx: { db: Queryable; tokens: TokenService; config: { login: LockoutPolicy }; breaks: Pick<PlayerBreaks, 'refusal'> },
  input: { username: string; password: string; ip: string; ipAllowed: boolean; siteId?: number },
): Promise<LoginResponse> {
  const username = input.username.trim();
  const { ip } = input;
  const siteId = input.siteId ?? 0;
  const { db } = ctx;
  // Every log row of this attempt carries the site it came from.
  const log = (entry: AuthLogEntry) => writeAuthLog(db, { ...entry, siteId });

  if (!input.ipAllowed) {
    await log({ username, type: LogType.LoginNotAllowed, ip, detail: { reason: 'ip' } });
    throw new AppError(Code.LoginIpNotPermitted, 403);
  }

  const found = await db.query<PlayerRow>(
    `SELECT ${PLAYER_IDENTITY_COLUMNS}, password_hash, pin_hash, banned, failed_logins, blocked_until,
            last_logon, last_logon_ip
       FROM players WHERE lower(username) = lower($1) OR lower(email) = lower($1) LIMIT 1`,
    [username],
  );
  const player = found.rows[0];
  if (!player) {
    await burnVerify(input.password);
    await log({ username, type: LogType.LoginFail, ip, detail: { reason: 'unknown user' } });
    throw new AppError(Code.LoginUnknownUser, 401);
  }

  await checkSecretWithLockout(ctx, {
    player,
    hash: player.password_hash,
    secret: input.password,
    ip,
    username,
    siteId,
    wrong: (params) => new AppError(Code.LoginIncorrect, 401, params),
  });
  if (player.banned) {
    await log({ playerId: player.id, username, type: LogType.LoginNotAllowed, ip, detail: { reason: 'banned' } });
    throw new AppError(Code.LoginBanned, 403);
  }
  // A cool-off or self-exclusion: refused with the code that says until when.
  const onBreak = await ctx.breaks.refusal(player.id);
  if (onBreak) {
    await log({ playerId: player.id, username, type: LogType.LoginNotAllowed, ip, detail: { reason: 'break', until: onBreak.params.until } });
    throw onBreak;
  }

  await db.query(
    'UPDATE players SET failed_logins = 0, blocked_until = NULL, last_logon = now(), last_logon_ip = $2 WHERE id = $1',
    [player.id, ip],
  );
  const { token } = await ctx.tokens.issue(player, ip, siteId);
  await log({ playerId: player.id, username, type: LogType.LoginSuccess, ip });
  return signedInAnswer(player, token, ip);
}

/** The answer of a sign-in, by password or with a stored token; `last_logon` is the previous one. */
export function signedInAnswer(
  player: { pin_hash: string | null; last_logon: Date | null; last_logon_ip: string | null },
  token: string,
  ip: string,
): LoginResponse {
  return {
    status: true,
    code: Code.Success,
    token,
    pin_code: Boolean(player.pin_hash),
    ip_address: ip,
    versions: versionsString(),
    last_logon: player.last_logon?.toISOString() ?? null,
    last_logon_ip: player.last_logon_ip,
  };
}
