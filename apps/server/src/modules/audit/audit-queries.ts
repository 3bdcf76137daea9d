/** The audit trail's reader: filters by actor, action (exact, or a prefix ending in "."), target and time. */
import type { AuditRow } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';

interface AuditFilter {
  actor?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
}

export async function listAudit(db: Queryable, filter: AuditFilter): Promise<{ items: AuditRow[]; total: number }> {
  const action = filter.action ?? null;
  const actionPrefix = action?.endsWith('.') ? action : null;
  const where = `WHERE ($1::text IS NULL OR actor = $1)
                   AND ($2::text IS NULL OR action = $2 OR ($3::text IS NOT NULL AND starts_with(action, $3)))
                   AND ($4::text IS NULL OR target = $4)
                   AND ($5::timestamptz IS NULL OR at >= $5) AND ($6::timestamptz IS NULL OR at < $6)`;
  const params = [filter.actor ?? null, action, actionPrefix, filter.target ?? null, filter.from ?? null, filter.to ?? null];
  const { rows } = await db.query<Omit<AuditRow, 'at'> & { at: Date }>(
    `SELECT seq, at, actor, action, target, before, after, reason, prev_hash, hash FROM audit_log ${where}
      ORDER BY seq DESC LIMIT $7 OFFSET $8`,
    [...params, filter.limit ?? 50, filter.offset ?? 0],
  );
  const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log ${where}`, params);
  return { items: rows.map((r) => ({ ...r, at: r.at.toISOString() })), total: total.rows[0]!.n };
}
