/** What the console reads about players: the search list and a player's page. */
import { CURRENCY, type AdminPlayerDetail, type AdminPlayerSummary, type LoginLogRow, type PlayerNote } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import { errors } from '../../lib/errors.js';
import { walletBalance } from '../ledger/ledger.js';
import { listSlotSessions, listTransactions } from '../history/queries.js';

/** How many rows of each list a player's page shows. */
const PAGE_LISTS = 50;

interface SummaryRow {
  id: number;
  username: string;
  email: string;
  name: string;
  lastname: string;
  banned: boolean;
  locked: boolean;
  blocked_until: Date | null;
  failed_logins: number;
  pin_set: boolean;
  balance: number;
  created_at: Date;
  last_logon: Date | null;
  last_logon_ip: string | null;
}

const SUMMARY_SELECT = `
  SELECT p.id, p.username, p.email, p.name, p.lastname, p.banned,
         coalesce(p.blocked_until > now(), false) AS locked, p.blocked_until, p.failed_logins,
         p.pin_hash IS NOT NULL AS pin_set,
         coalesce((SELECT sum(a.balance) FROM accounts a WHERE a.kind = 'wallet' AND a.player_id = p.id), 0)::bigint AS balance,
         p.created_at, p.last_logon, p.last_logon_ip
    FROM players p`;

const summary = (row: SummaryRow): AdminPlayerSummary => ({
  ...row,
  blocked_until: row.locked ? (row.blocked_until?.toISOString() ?? null) : null,
  created_at: row.created_at.toISOString(),
  last_logon: row.last_logon?.toISOString() ?? null,
});

/** Players whose username, email or name contains `q` (or whose id it is), newest first. */
export async function searchPlayers(db: Queryable, query: { q?: string; limit?: number; offset?: number }) {
  const q = query.q?.trim() ?? '';
  const where = `WHERE $1 = '' OR p.username ILIKE '%' || $1 || '%' OR p.email ILIKE '%' || $1 || '%'
                    OR (p.name || ' ' || p.lastname) ILIKE '%' || $1 || '%' OR ($1 ~ '^[0-9]{1,9}$' AND p.id = $1::int)`;
  // ILIKE's own wildcards in the search text are matched literally.
  const pattern = q.replace(/[\\%_]/g, (c) => `\\${c}`);
  const { rows } = await db.query<SummaryRow>(`${SUMMARY_SELECT} ${where} ORDER BY p.id DESC LIMIT $2 OFFSET $3`, [
    pattern,
    query.limit ?? 50,
    query.offset ?? 0,
  ]);
  const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM players p ${where}`, [pattern]);
  return { items: rows.map(summary), total: total.rows[0]!.n };
}

export async function playerSummary(db: Queryable, playerId: number): Promise<AdminPlayerSummary> {
  const { rows } = await db.query<SummaryRow>(`${SUMMARY_SELECT} WHERE p.id = $1`, [playerId]);
  if (!rows[0]) throw errors.notFound();
  return summary(rows[0]);
}

async function loginLog(db: Queryable, playerId: number): Promise<LoginLogRow[]> {
  const { rows } = await db.query<{ created_at: Date; type: string; ip: string | null; detail: Record<string, unknown> }>(
    'SELECT created_at, type, ip, detail FROM auth_log WHERE player_id = $1 ORDER BY id DESC LIMIT $2',
    [playerId, PAGE_LISTS],
  );
  return rows.map((r) => ({ at: r.created_at.toISOString(), type: r.type, ip: r.ip, detail: r.detail }));
}

async function notes(db: Queryable, playerId: number): Promise<PlayerNote[]> {
  const { rows } = await db.query<{ id: number; created_at: Date; author: string; text: string }>(
    'SELECT id, created_at, author, text FROM player_notes WHERE player_id = $1 ORDER BY id DESC LIMIT $2',
    [playerId, PAGE_LISTS],
  );
  return rows.map((r) => ({ id: r.id, at: r.created_at.toISOString(), author: r.author, text: r.text }));
}

export async function playerDetail(db: Queryable, playerId: number): Promise<Omit<AdminPlayerDetail, 'status' | 'code'>> {
  const player = await playerSummary(db, playerId);
  const wallet = await walletBalance(db, playerId);
  return {
    player,
    wallet: { ...wallet, currency: CURRENCY },
    sessions: (await listSlotSessions(db, playerId, { limit: PAGE_LISTS })).items,
    transactions: (await listTransactions(db, playerId, { limit: PAGE_LISTS })).items,
    logins: await loginLog(db, playerId),
    notes: await notes(db, playerId),
  };
}
