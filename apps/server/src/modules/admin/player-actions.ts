/**
 * What an operator does to a player, from the console or the command line: each action is one
 * transaction that also appends its audit row (who, what, why, before, after), so either both
 * happen or neither. Secrets never reach the trail: only that they were set.
 */
import { ActionCode, Code, LOGIN_MIN_LENGTH } from '@reel/protocol';
import { withTransaction, type Db, type Queryable } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/passwords.js';
import type { Bus } from '../../lib/bus.js';
import { appendAudit } from '../audit/audit-log.js';
import { announceRevocation } from '../auth/revocations.js';
import { OperationKind, walletBalance, type MoveResult, type WalletBalance } from '../ledger/ledger.js';
import { withMoney } from '../ledger/ledger-service.js';
import type { PlayerBreaks } from '../protection/player-breaks.js';

/** Who acts and why: the audit row's actor and reason. */
interface Acting {
  actor: string;
  reason: string;
}

const target = (playerId: number) => `player:${playerId}`;

interface PlayerFlags {
  banned: boolean;
  failed_logins: number;
  blocked_until: Date | null;
  pin_set: boolean;
}

/** The player's account flags, row-locked for the transaction; 404 when there is no such player. */
async function lockPlayer(tx: Queryable, playerId: number): Promise<PlayerFlags> {
  const { rows } = await tx.query<PlayerFlags>(
    'SELECT banned, failed_logins, blocked_until, pin_hash IS NOT NULL AS pin_set FROM players WHERE id = $1 FOR UPDATE',
    [playerId],
  );
  if (!rows[0]) throw new AppError(Code.NotFound, 404, {}, `no player ${playerId}`);
  return rows[0];
}

const lockState = (flags: PlayerFlags) => ({
  failed_logins: flags.failed_logins,
  blocked_until: flags.blocked_until && flags.blocked_until > new Date() ? flags.blocked_until.toISOString() : null,
});

/** Revokes every token of the player; the running servers close the player's sockets at commit (revocations.ts). */
async function revokeTokens(tx: Queryable, playerId: number): Promise<number> {
  const { rowCount } = await tx.query('UPDATE auth_tokens SET revoked_at = now() WHERE player_id = $1 AND revoked_at IS NULL', [playerId]);
  await announceRevocation(tx, playerId);
  return rowCount ?? 0;
}

export interface CashierResult {
  playerId: number;
  move: MoveResult;
  wallet: WalletBalance;
}

/**
 * Deposit (action code 1, cashier → the player's cash part) or withdrawal (action code 2: only the
 * cash part is paid out). A replay of the same idempotency key moves nothing and writes no second
 * audit row: the first one records the correction.
 */
export async function cashierMove(
  deps: { db: Db; bus?: Bus },
  acting: Acting,
  input: { playerId: number; direction: 'deposit' | 'withdraw'; amountCents: number; idempotencyKey: string },
): Promise<CashierResult> {
  const { playerId, direction, amountCents } = input;
  const cash = { kind: 'wallet', playerId, part: 'cash' } as const;
  const cashier = { kind: 'cashier' } as const;
  return withMoney(deps, async (tx, move) => {
    await lockPlayer(tx, playerId);
    const moved = await move({
      ...(direction === 'deposit'
        ? { kind: OperationKind.Deposit, actionCode: ActionCode.Deposit, from: cashier, to: cash }
        : { kind: OperationKind.Withdraw, actionCode: ActionCode.Withdraw, from: cash, to: cashier }),
      playerId,
      idempotencyKey: input.idempotencyKey,
      amountCents,
      tag: 'operator',
    });
    const wallet = moved.wallets.get(playerId) ?? (await walletBalance(tx, playerId));
    if (!moved.replayed) {
      const signed = direction === 'deposit' ? amountCents : -amountCents;
      await appendAudit(tx, {
        ...acting,
        action: `player.${direction}`,
        target: target(playerId),
        before: { cash: wallet.cash - signed, balance: wallet.balance - signed },
        after: { cash: wallet.cash, balance: wallet.balance, amount: amountCents, operation_id: moved.operationId, idempotency_key: input.idempotencyKey },
      });
    }
    return { playerId, move: moved, wallet };
  });
}

/** Bans (signing the player out everywhere at once) or lifts a ban. */
export async function setBanned(db: Db, acting: Acting, playerId: number, banned: boolean) {
  return withTransaction(db, async (tx) => {
    const before = await lockPlayer(tx, playerId);
    await tx.query('UPDATE players SET banned = $2 WHERE id = $1', [playerId, banned]);
    // Token checks also refuse banned players; revoking makes a later unban not bring old tokens back.
    const revokedTokens = banned ? await revokeTokens(tx, playerId) : 0;
    await appendAudit(tx, {
      ...acting,
      action: banned ? 'player.ban' : 'player.unban',
      target: target(playerId),
      before: { banned: before.banned },
      after: { banned, signed_out: revokedTokens },
    });
    return { playerId, revokedTokens };
  });
}

/** Sets the password, lifts a sign-in block and signs the player out everywhere. */
export async function resetPassword(db: Db, acting: Acting, playerId: number, password: string) {
  if (password.length < LOGIN_MIN_LENGTH) throw new AppError(Code.PasswordTooShort, 400);
  const hash = await hashSecret(password);
  return withTransaction(db, async (tx) => {
    const before = await lockPlayer(tx, playerId);
    await tx.query(
      'UPDATE players SET password_hash = $2, password_changed_at = now(), failed_logins = 0, blocked_until = NULL WHERE id = $1',
      [playerId, hash],
    );
    // Whoever knew the old password must not stay signed in.
    const revokedTokens = await revokeTokens(tx, playerId);
    await appendAudit(tx, {
      ...acting,
      action: 'player.reset-password',
      target: target(playerId),
      before: lockState(before),
      after: { password_changed: true, failed_logins: 0, blocked_until: null, signed_out: revokedTokens },
    });
    return { playerId, revokedTokens };
  });
}

export function checkPin(pin: string) {
  if (!/^[0-9]{4,8}$/.test(pin)) throw new AppError(Code.InvalidRequest, 400, {}, 'PIN must be 4 to 8 digits');
}

export async function setPin(db: Db, acting: Acting, playerId: number, pin: string) {
  checkPin(pin);
  const hash = await hashSecret(pin);
  return withTransaction(db, async (tx) => {
    const before = await lockPlayer(tx, playerId);
    await tx.query('UPDATE players SET pin_hash = $2 WHERE id = $1', [playerId, hash]);
    await appendAudit(tx, { ...acting, action: 'player.set-pin', target: target(playerId), before: { pin_set: before.pin_set }, after: { pin_set: true } });
    return { playerId };
  });
}

/** Lifts a block from too many wrong passwords or PINs and clears the failure counter. */
export async function unlockPlayer(db: Db, acting: Acting, playerId: number) {
  return withTransaction(db, async (tx) => {
    const before = await lockPlayer(tx, playerId);
    await tx.query('UPDATE players SET failed_logins = 0, blocked_until = NULL WHERE id = $1', [playerId]);
    await appendAudit(tx, { ...acting, action: 'player.unlock', target: target(playerId), before: lockState(before), after: { failed_logins: 0, blocked_until: null } });
    return { playerId };
  });
}

/** A staff note on the player; its text is also the audit row's reason. */
export async function addNote(db: Db, acting: { actor: string; operatorId: number | null }, playerId: number, text: string) {
  return withTransaction(db, async (tx) => {
    await lockPlayer(tx, playerId);
    const { rows } = await tx.query<{ id: number }>(
      'INSERT INTO player_notes (player_id, operator_id, author, text) VALUES ($1, $2, $3, $4) RETURNING id',
      [playerId, acting.operatorId, acting.actor, text],
    );
    await appendAudit(tx, { actor: acting.actor, action: 'player.note', target: target(playerId), before: null, after: { note_id: rows[0]!.id }, reason: text });
    return { playerId, noteId: rows[0]!.id };
  });
}

/**
 * Admin only: ends the player's self-exclusion in force (a cool-off cannot be ended: 40400) and
 * writes its audit row in the same transaction: the break as it was, and as it ended. The player may
 * sign in again at once.
 */
export async function endSelfExclusion(deps: { db: Db; breaks: PlayerBreaks }, acting: Acting, admin: { id: number; username: string }, playerId: number) {
  return withTransaction(deps.db, async (tx) => {
    const { before, after } = await deps.breaks.endSelfExclusionEarly(tx, playerId, { admin, reason: acting.reason });
    await appendAudit(tx, { ...acting, action: 'player.end-self-exclusion', target: target(playerId), before, after });
    return { playerId };
  });
}
