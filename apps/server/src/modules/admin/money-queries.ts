/** The console's view of the ledger: accounts, operations with their postings, jackpot pools. */
import type { LedgerAccountRow, LedgerTransferRow } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';

export async function listAccounts(db: Queryable, query: { kind?: string; player_id?: number; limit?: number; offset?: number }) {
  const where = 'WHERE ($1::text IS NULL OR a.kind = $1) AND ($2::int IS NULL OR a.player_id = $2)';
  const filters = [query.kind ?? null, query.player_id ?? null];
  const { rows } = await db.query<LedgerAccountRow>(
    `SELECT a.id, a.kind, a.part, a.player_id, p.username, a.machine_id, a.balance
       FROM accounts a LEFT JOIN players p ON p.id = a.player_id
      ${where} ORDER BY a.id LIMIT $3 OFFSET $4`,
    [...filters, query.limit ?? 50, query.offset ?? 0],
  );
  const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM accounts a ${where}`, filters);
  return { items: rows, total: total.rows[0]!.n };
}

/** Operations, newest first, each with its postings; filtered by an account it touched or its player. */
export async function listTransfers(db: Queryable, query: { account_id?: number; player_id?: number; limit?: number; offset?: number }) {
  const where = `WHERE ($1::bigint IS NULL OR EXISTS (SELECT 1 FROM ledger_entries x WHERE x.operation_id = o.id AND x.account_id = $1))
                   AND ($2::int IS NULL OR o.player_id = $2)`;
  const filters = [query.account_id ?? null, query.player_id ?? null];
  const { rows } = await db.query<Omit<LedgerTransferRow, 'at' | 'entries'> & { created_at: Date; entries: { account_id: number; amount: number }[] }>(
    `SELECT o.id, o.created_at, o.kind, o.action_code, o.player_id, o.machine_id, o.session_id::text AS session_id,
            o.amount_cents AS amount, o.tag, o.idempotency_key,
            (SELECT json_agg(json_build_object('account_id', e.account_id, 'amount', e.amount_cents) ORDER BY e.id)
               FROM ledger_entries e WHERE e.operation_id = o.id) AS entries
       FROM ledger_operations o ${where} ORDER BY o.id DESC LIMIT $3 OFFSET $4`,
    [...filters, query.limit ?? 50, query.offset ?? 0],
  );
  const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_operations o ${where}`, filters);
  const items: LedgerTransferRow[] = rows.map(({ created_at, entries, ...row }) => ({ ...row, at: created_at.toISOString(), entries: entries ?? [] }));
  return { items, total: total.rows[0]!.n };
}

export async function jackpotPools(db: Queryable) {
  const { rows } = await db.query<{ brand_id: number; brand: string; level: number; seed: number; amount: number }>(
    `SELECT j.brand_id, b.name AS brand, j.level, j.seed_cents AS seed, j.amount_cents AS amount
       FROM jackpots j JOIN brands b ON b.id = j.brand_id ORDER BY j.brand_id, j.level`,
  );
  return rows;
}
