/**
 * What the operator command line does, as plain functions over a database pool, so tests can run
 * them without a subprocess. Input mistakes are AppErrors with catalogue codes; the CLI prints them.
 */
import crypto from 'node:crypto';
import { ActionCode, Code, CURRENCY, formatCents, LOGIN_MIN_LENGTH } from '@reel/protocol';
import { withTransaction, type Db } from '../db/pool.js';
import { AppError } from '../lib/errors.js';
import { hashSecret } from '../lib/passwords.js';
import {
  auditLedger,
  OperationKind,
  walletBalance,
  type MoveResult,
  type WalletBalance,
} from '../modules/ledger/ledger.js';
import { transfer } from '../modules/ledger/ledger-service.js';
import { auditPlayers } from '../modules/ledger/player-audit.js';
import { listMalfunctions } from '../modules/sessions/malfunction-log.js';
import { createPlayer, findPlayerId } from '../modules/player/players.js';
import { createBrand, createMachine } from '../modules/machines/catalog.js';
import { announceRevocation } from '../modules/auth/revocations.js';

const invalid = (message: string) => new AppError(Code.InvalidRequest, 400, {}, message);

/**
 * Parses an amount typed by an operator into integer cents without floating point: "50", "50.5",
 * "50.00" are major units; with `cents`, only digits ("5000"). Zero, negatives and more than two
 * decimals are refused rather than rounded.
 */
export function parseAmountCents(text: string, options: { cents?: boolean } = {}): number {
  const trimmed = text.trim();
  let cents: bigint;
  if (options.cents) {
    if (!/^\d+$/.test(trimmed)) throw invalid(`amount "${text}" must be a whole number of cents, like 5000`);
    cents = BigInt(trimmed);
  } else {
    const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(trimmed);
    if (!match)
      throw invalid(`amount "${text}" must look like 50 or 50.00 (at most two decimals; --cents for cents)`);
    cents = BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  }
  if (cents <= 0n) throw invalid('amount must be greater than zero');
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid('amount is too large');
  return Number(cents);
}

/** 123456 → "1,234.56": the protocol's exact decimal with thousands grouped for reading. */
export function formatGroupedCents(amountCents: number): string {
  return formatCents(amountCents).replace(/\B(?=(\d{3})+\.)/g, ',');
}

/** A plain text table; numbers are right-aligned. */
export function formatTable(
  rows: Record<string, string | number | boolean | null>[],
  columns?: string[],
): string {
  if (!rows.length) return '(none)';
  const keys = columns ?? Object.keys(rows[0]!);
  const cells = rows.map((row) =>
    keys.map((k) => (row[k] === null || row[k] === undefined ? '' : String(row[k]))),
  );
  const widths = keys.map((k, i) => Math.max(k.length, ...cells.map((c) => c[i]!.length)));
  const numeric = keys.map((k) =>
    rows.every((row) => typeof row[k] === 'number' || /^-?[\d,]+\.\d\d$/.test(String(row[k] ?? ''))),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(keys), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

async function revokeTokens(db: Db, playerId: number) {
  const { rowCount } = await db.query(
    'UPDATE auth_tokens SET revoked_at = now() WHERE player_id = $1 AND revoked_at IS NULL',
    [playerId],
  );
  // The running server closes the player's sockets now, not at their next heartbeat.
  await announceRevocation(db, playerId);
  return rowCount ?? 0;
}

export async function createPlayerCommand(
  db: Db,
  input: {
    username: string;
    email: string;
    password?: string;
    name?: string;
    lastname?: string;
    pin?: string;
  },
) {
  if (input.pin !== undefined) checkPin(input.pin);
  // No password given: issue one, shown once to the operator.
  const password = input.password ?? crypto.randomBytes(9).toString('base64url');
  const id = await withTransaction(db, (tx) => createPlayer(tx, { ...input, password }));
  return { id, generatedPassword: input.password === undefined ? password : undefined };
}

export async function resetPassword(db: Db, username: string, password: string) {
  if (password.length < LOGIN_MIN_LENGTH) throw new AppError(Code.PasswordTooShort, 400);
  const playerId = await findPlayerId(db, username);
  await db.query(
    'UPDATE players SET password_hash = $2, password_changed_at = now(), failed_logins = 0, blocked_until = NULL WHERE id = $1',
    [playerId, await hashSecret(password)],
  );
  // Whoever knew the old password must not stay signed in.
  return { playerId, revokedTokens: await revokeTokens(db, playerId) };
}

function checkPin(pin: string) {
  if (!/^[0-9]{4,8}$/.test(pin)) throw invalid('PIN must be 4 to 8 digits');
}

export async function setPin(db: Db, username: string, pin: string) {
  checkPin(pin);
  const playerId = await findPlayerId(db, username);
  await db.query('UPDATE players SET pin_hash = $2 WHERE id = $1', [playerId, await hashSecret(pin)]);
  return { playerId };
}

/**
 * The picture must load on the site's pages: a path on the site, or an https URL (the page's CSP
 * allows images from both).
 */
function checkAvatarUrl(url: string) {
  const sitePath = url.startsWith('/') && !url.startsWith('//');
  let https = false;
  try {
    https = new URL(url).protocol === 'https:';
  } catch {
    https = false;
  }
  if (url.length > 2000 || (!sitePath && !https)) throw invalid('the avatar must be an https URL or a path on the site, like /avatars/carol.png');
}

/** Sets (or, with no URL, clears) a player's avatar; it shows from the player's next sign-in or reload. */
export async function setAvatar(db: Db, username: string, url?: string) {
  if (url !== undefined) checkAvatarUrl(url);
  const playerId = await findPlayerId(db, username);
  await db.query('UPDATE players SET photo_url = $2 WHERE id = $1', [playerId, url ?? null]);
  return { playerId };
}

export interface CashierResult {
  playerId: number;
  move: MoveResult;
  wallet: WalletBalance;
}

/**
 * Operator deposit (action code 1, cashier → the player's cash part) or withdrawal (action code 2:
 * only the cash part can be paid out, never promotions).
 */
async function cashierMove(
  db: Db,
  direction: 'deposit' | 'withdraw',
  username: string,
  amountCents: number,
  idempotencyKey: string,
): Promise<CashierResult> {
  const playerId = await findPlayerId(db, username);
  const cash = { kind: 'wallet', playerId, part: 'cash' } as const;
  const cashier = { kind: 'cashier' } as const;
  const move = await transfer(
    { db },
    {
      ...(direction === 'deposit'
        ? { kind: OperationKind.Deposit, actionCode: ActionCode.Deposit, from: cashier, to: cash }
        : { kind: OperationKind.Withdraw, actionCode: ActionCode.Withdraw, from: cash, to: cashier }),
      playerId,
      idempotencyKey,
      amountCents,
      tag: 'operator',
    },
  );
  return { playerId, move, wallet: await walletBalance(db, playerId) };
}

export const depositCommand = (db: Db, username: string, amountCents: number, idempotencyKey: string) =>
  cashierMove(db, 'deposit', username, amountCents, idempotencyKey);

export const withdrawCommand = (db: Db, username: string, amountCents: number, idempotencyKey: string) =>
  cashierMove(db, 'withdraw', username, amountCents, idempotencyKey);

export async function setBanned(db: Db, username: string, banned: boolean) {
  const playerId = await findPlayerId(db, username);
  await db.query('UPDATE players SET banned = $2 WHERE id = $1', [playerId, banned]);
  // Token checks also refuse banned players; revoking makes a later unban not bring old tokens back.
  return { playerId, revokedTokens: banned ? await revokeTokens(db, playerId) : 0 };
}

export async function addBrand(db: Db, input: { name: string; image?: string; jackpotSeedsCents: number[] }) {
  const name = input.name.trim();
  if (!name) throw invalid('brand name must not be empty');
  const taken = await db.query('SELECT 1 FROM brands WHERE lower(name) = lower($1)', [name]);
  if (taken.rowCount) throw new AppError(Code.InvalidRequest, 409, {}, `brand "${name}" already exists`);
  return withTransaction(db, (tx) => createBrand(tx, { ...input, name }));
}

async function findBrandId(db: Db, brand: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    "SELECT id FROM brands WHERE lower(name) = lower($1) OR ($1 ~ '^[0-9]{1,9}$' AND id = $1::int)",
    [brand],
  );
  if (!rows[0]) throw new AppError(Code.NotFound, 404, {}, `no brand "${brand}"`);
  return rows[0].id;
}

export async function addMachine(
  db: Db,
  input: {
    brand: string;
    name: string;
    image?: string;
    videoType?: 'screen' | 'camera';
    handpayLimitCents?: number;
    reservation?: boolean;
  },
) {
  const name = input.name.trim();
  if (!name) throw invalid('machine name must not be empty');
  if (input.videoType && !['screen', 'camera'].includes(input.videoType))
    throw invalid('video type must be screen or camera');
  const brandId = await findBrandId(db, input.brand);
  return withTransaction(db, (tx) => createMachine(tx, { ...input, name, brandId }));
}

export async function listPlayers(db: Db) {
  const { rows } = await db.query<{
    id: number;
    username: string;
    email: string;
    name: string;
    banned: boolean;
    blocked: boolean;
    cash: number;
    credit: number;
    bonus: number;
    discount: number;
  }>(
    `SELECT p.id, p.username, p.email, trim(p.name || ' ' || p.lastname) AS name, p.banned,
            coalesce(p.blocked_until > now(), false) AS blocked,
            coalesce(sum(a.balance) FILTER (WHERE a.part = 'cash'), 0)::bigint AS cash,
            coalesce(sum(a.balance) FILTER (WHERE a.part = 'credit'), 0)::bigint AS credit,
            coalesce(sum(a.balance) FILTER (WHERE a.part = 'bonus'), 0)::bigint AS bonus,
            coalesce(sum(a.balance) FILTER (WHERE a.part = 'discount'), 0)::bigint AS discount
       FROM players p LEFT JOIN accounts a ON a.kind = 'wallet' AND a.player_id = p.id
      GROUP BY p.id ORDER BY p.id`,
  );
  return rows.map((r) => ({ ...r, balance: r.cash + r.credit + r.bonus + r.discount }));
}

export async function listMachines(db: Db) {
  const { rows } = await db.query<{
    id: number;
    brand: string;
    name: string;
    state: string;
    enabled: boolean;
    reservation: boolean;
    video: string;
    credits: number;
  }>(
    `SELECT m.id, b.name AS brand, m.name, m.cabinet_state AS state, m.enabled, m.reservation, m.video_type AS video,
            coalesce(a.balance, 0) AS credits
       FROM machines m JOIN brands b ON b.id = m.brand_id
       LEFT JOIN accounts a ON a.kind = 'machine' AND a.machine_id = m.id
      ORDER BY m.id`,
  );
  return rows;
}

/**
 * The ledger's own invariants, and every player's money against the recorded game results. The
 * malfunctions on record are counted too: each was settled (its adjustment is in the players'
 * figures), so they do not make the ledger wrong, but each needs an operator's look.
 */
export async function auditCommand(db: Db) {
  const ledger = await auditLedger(db);
  const players = await auditPlayers(db);
  const malfunctions = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM malfunctions');
  return { ...ledger, players: players.mismatched, malfunctions: malfunctions.rows[0]!.n, ok: ledger.ok && players.ok };
}

/** The malfunctions on record, newest first, as the operator's table shows them. */
export async function malfunctionsCommand(db: Db, limit: string) {
  if (!/^\d+$/.test(limit) || Number(limit) < 1) throw invalid(`--limit must be a whole number above 0, not "${limit}"`);
  const rows = await listMalfunctions(db, Number(limit));
  return rows.map((r) => ({
    id: r.id,
    at: r.at.toISOString().replace('T', ' ').slice(0, 19),
    machine: r.machine_id,
    player: r.username ?? '-',
    session: r.session_id ?? '-',
    reason: r.reason,
    records: formatGroupedCents(r.records_cents),
    machine_shows: formatGroupedCents(r.machine_cents),
    paid: r.paid_cents === null ? '-' : formatGroupedCents(r.paid_cents),
    from_house: formatGroupedCents(r.adjustment_cents),
    missing_games: r.missing_games.join(' ') || '-',
    last_recorded: r.recorded_games.slice(-3).map((g) => g.gameId).join(' ') || '-',
    cabinet_last: r.cabinet_games.slice(-3).map((g) => g.gameId).join(' ') || '-',
  }));
}

export const currency = CURRENCY;
