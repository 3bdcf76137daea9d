/**
 * The signed-in player's slot sessions and money operations, newest first, one keyset page at a time.
 * Every query is scoped by the player id from the token; nothing a client sends can widen it.
 */
import { actionCodeName, type SlotSessionRow, type TransactionRow } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import {
  decodeOperationCursor,
  decodeSessionCursor,
  encodeOperationCursor,
  encodeSessionCursor,
} from './cursor.js';

interface PageRequest {
  search?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** `%text%` for ILIKE with the user's own wildcards taken literally; null when there is nothing to match. */
function searchPattern(search: string | undefined): string | null {
  const text = search?.trim();
  if (!text) return null;
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

interface SessionDbRow {
  id: string;
  machine: string;
  machine_id: number;
  brand: string;
  started_at: Date;
  ended_at: Date | null;
  start_us: string;
  duration_s: number;
  spins: number;
  free_spins: number;
  cash_in_cents: number;
  cash_out_cents: number;
  status: string;
}

export async function listSlotSessions(
  db: Queryable,
  playerId: number,
  request: PageRequest,
): Promise<Page<SlotSessionRow>> {
  const after = request.cursor ? decodeSessionCursor(request.cursor) : null;
  const { rows } = await db.query<SessionDbRow>(
    `SELECT s.id::text AS id, m.name AS machine, m.id AS machine_id, b.name AS brand, s.started_at, s.ended_at,
            (extract(epoch FROM s.started_at) * 1000000)::bigint::text AS start_us,
            greatest(0, floor(extract(epoch FROM coalesce(s.ended_at, now()) - s.started_at)))::int AS duration_s,
            s.spins, s.free_spins, s.cash_in_cents, s.cash_out_cents, s.status
       FROM slot_sessions s
       JOIN machines m ON m.id = s.machine_id
       JOIN brands b ON b.id = m.brand_id
      WHERE s.player_id = $1
        AND ($2::text IS NULL OR m.name ILIKE $2 OR b.name ILIKE $2 OR s.status ILIKE $2 OR s.id::text ILIKE $2)
        AND ($3::bigint IS NULL
             OR (s.started_at, s.id) < ('epoch'::timestamptz + $3::bigint * interval '1 microsecond', $4::uuid))
      ORDER BY s.started_at DESC, s.id DESC
      LIMIT $5`,
    [playerId, searchPattern(request.search), after?.startUs ?? null, after?.id ?? null, request.limit + 1],
  );
  const more = rows.length > request.limit;
  const page = more ? rows.slice(0, request.limit) : rows;
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: r.id,
      machine: r.machine,
      machineId: r.machine_id,
      brand: r.brand,
      start: r.started_at.toISOString(),
      end: r.ended_at?.toISOString() ?? null,
      duration_s: r.duration_s,
      spin_count: r.spins,
      free_spin_count: r.free_spins,
      cash_in: r.cash_in_cents,
      cash_out: r.cash_out_cents,
      net: r.cash_out_cents - r.cash_in_cents,
      status: r.status,
    })),
    next_cursor: more && last ? encodeSessionCursor({ startUs: last.start_us, id: last.id }) : null,
  };
}

interface OperationDbRow {
  id: number;
  created_at: Date;
  from_label: string;
  amount: number;
  type: string;
  action_code: number | null;
  machine: string | null;
  session_id: string | null;
  started_at: Date | null;
  ended_at: Date | null;
  duration_s: number | null;
  spins: number | null;
  free_spins: number | null;
  tag: string | null;
}

const ACTION_NAMES = Object.entries(actionCodeName)
  .sort(([a], [b]) => Number(a) - Number(b))
  .map(([, name]) => name);

/**
 * One row per operation of the player. The amount is what the operation did to the player's own
 * wallet (negative when money left it); `from` is the other side of the move.
 */
export async function listTransactions(
  db: Queryable,
  playerId: number,
  request: PageRequest,
): Promise<Page<TransactionRow>> {
  const afterId = request.cursor ? decodeOperationCursor(request.cursor) : null;
  const { rows } = await db.query<OperationDbRow>(
    `SELECT o.id, o.created_at, t.from_label, e.amount, t.type, o.action_code,
            coalesce(om.name, cm.name) AS machine, s.id::text AS session_id,
            s.started_at, s.ended_at, s.spins, s.free_spins, o.tag,
            CASE WHEN s.id IS NOT NULL
                 THEN greatest(0, floor(extract(epoch FROM coalesce(s.ended_at, now()) - s.started_at)))::int END AS duration_s
       FROM ledger_operations o
       CROSS JOIN LATERAL (
         SELECT coalesce(sum(le.amount_cents) FILTER (WHERE a.kind = 'wallet' AND a.player_id = o.player_id), 0)::bigint AS amount,
                (array_agg(a.kind ORDER BY a.id) FILTER (WHERE NOT (a.kind = 'wallet' AND a.player_id = o.player_id)))[1] AS cp_kind,
                (array_agg(a.machine_id ORDER BY a.id) FILTER (WHERE a.kind = 'machine'))[1] AS cp_machine_id
           FROM ledger_entries le JOIN accounts a ON a.id = le.account_id
          WHERE le.operation_id = o.id
       ) e
       LEFT JOIN machines om ON om.id = o.machine_id
       LEFT JOIN machines cm ON cm.id = e.cp_machine_id
       LEFT JOIN slot_sessions s ON s.id = o.session_id AND s.player_id = o.player_id
       CROSS JOIN LATERAL (
         SELECT coalesce(($2::text[])[o.action_code], o.kind) AS type,
                CASE e.cp_kind WHEN 'cashier' THEN 'Cashier' WHEN 'house' THEN 'House' WHEN 'promotions' THEN 'Promotions'
                               WHEN 'machine' THEN coalesce(cm.name, 'Machine') ELSE 'Wallet' END AS from_label
       ) t
      WHERE o.player_id = $1
        AND ($3::text IS NULL OR t.type ILIKE $3 OR o.kind ILIKE $3 OR o.tag ILIKE $3 OR t.from_label ILIKE $3
             OR coalesce(om.name, cm.name) ILIKE $3 OR o.session_id::text ILIKE $3)
        AND ($4::bigint IS NULL OR o.id < $4)
      ORDER BY o.id DESC
      LIMIT $5`,
    [playerId, ACTION_NAMES, searchPattern(request.search), afterId, request.limit + 1],
  );
  const more = rows.length > request.limit;
  const page = more ? rows.slice(0, request.limit) : rows;
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: String(r.id),
      date: r.created_at.toISOString(),
      from: r.from_label,
      amount: r.amount,
      type: r.type,
      action_code: r.action_code,
      machine: r.machine,
      session_id: r.session_id,
      start: r.started_at?.toISOString() ?? null,
      end: r.ended_at?.toISOString() ?? null,
      duration_s: r.duration_s,
      spin_count: r.spins,
      free_spin_count: r.free_spins,
      tag: r.tag,
    })),
    next_cursor: more && last ? encodeOperationCursor(last.id) : null,
  };
}

/** Every matching row, fetched page by page so a long history never sits in memory at once. */
export async function* allRows<T>(
  list: (db: Queryable, playerId: number, request: PageRequest) => Promise<Page<T>>,
  db: Queryable,
  playerId: number,
  search: string | undefined,
  batch = 500,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const page = await list(db, playerId, { search, cursor, limit: batch });
    yield* page.items;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}
