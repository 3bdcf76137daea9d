/**
 * What the operator command line does, as plain functions over a database pool, so tests can run
 * them without a subprocess. Input mistakes are AppErrors with catalogue codes; the CLI prints them.
 */
import crypto from 'node:crypto';
import { Code, CURRENCY, formatCents, LOGIN_MIN_LENGTH } from '@reel/protocol';
import { withTransaction, type Db } from '../db/pool.js';
import { AppError } from '../lib/errors.js';
import { auditMoney } from '../modules/ledger/player-audit.js';
import { listMalfunctions } from '../modules/sessions/malfunction-log.js';
import { createPlayer, findPlayerId } from '../modules/player/players.js';
import { createBrand, createMachine } from '../modules/machines/catalog.js';
import { cliActor } from '../modules/audit/audit-actor.js';
import {
  cashierMove,
  checkPin,
  resetPassword as resetPlayerPassword,
  setBanned as setPlayerBanned,
  setPin as setPlayerPin,
} from '../modules/admin/player-actions.js';

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

/** The audit row of a command-line action: the OS user, and the reason given (`--reason`). */
export const DEFAULT_CLI_REASON = 'operator command line (no reason given)';
const cli = (reason: string | undefined) => ({ actor: cliActor(), reason: reason?.trim() || DEFAULT_CLI_REASON });

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

export async function resetPassword(db: Db, username: string, password: string, reason?: string) {
  if (password.length < LOGIN_MIN_LENGTH) throw new AppError(Code.PasswordTooShort, 400);
  return resetPlayerPassword(db, cli(reason), await findPlayerId(db, username), password);
}

export async function setPin(db: Db, username: string, pin: string, reason?: string) {
  checkPin(pin);
  return setPlayerPin(db, cli(reason), await findPlayerId(db, username), pin);
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

export const depositCommand = async (db: Db, username: string, amountCents: number, idempotencyKey: string, reason?: string) =>
  cashierMove({ db }, cli(reason), { playerId: await findPlayerId(db, username), direction: 'deposit', amountCents, idempotencyKey });

export const withdrawCommand = async (db: Db, username: string, amountCents: number, idempotencyKey: string, reason?: string) =>
  cashierMove({ db }, cli(reason), { playerId: await findPlayerId(db, username), direction: 'withdraw', amountCents, idempotencyKey });

export async function setBanned(db: Db, username: string, banned: boolean, reason?: string) {
  return setPlayerBanned(db, cli(reason), await findPlayerId(db, username), banned);
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

/** The ledger audit (modules/ledger/player-audit.ts), as the CLI prints it. */
export const auditCommand = (db: Db) => auditMoney(db);

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
