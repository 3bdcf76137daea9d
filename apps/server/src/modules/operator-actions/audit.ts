/**
 * STAND-IN for the core's `appendAudit(tx, entry)` (modules/audit/audit-log.ts on branch
 * admin-server): the same signature, called inside the action's transaction; replaced by the real
 * one once that branch is merged.
 */
import type { Queryable } from '../../db/pool.js';

export interface AuditEntry {
  actor: string;
  action: string;
  target: string;
  before?: unknown;
  after?: unknown;
  reason: string;
}

export async function appendAudit(tx: Queryable, entry: AuditEntry): Promise<void> {
  void tx;
  void entry;
}
