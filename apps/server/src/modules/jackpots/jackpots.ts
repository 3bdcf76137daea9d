/**
 * Progressive jackpots per brand: every bet feeds the levels, and a jackpot the cabinet's math
 * decides is paid from the house to the player's wallet (action code 6), then the level restarts
 * from its seed. Lobbies hear every change.
 */
import { ActionCode, type JackpotNotification } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import { Topic, type Bus } from '../../lib/bus.js';
import type { MoveFn } from '../ledger/ledger-service.js';
import { OperationKind } from '../ledger/ledger.js';

/** Jackpot contribution per bet, per level, in basis points (top level first). */
const JACKPOT_CONTRIBUTION_BP = [50, 30, 20];

/** Feeds the brand's levels with a bet, in the caller's transaction; returns them as the lobby shows them. */
export async function feedJackpots(db: Queryable, brandId: number, betCents: number): Promise<string> {
  // Every game of the brand updates the same rows: they are locked in level order first. One UPDATE
  // of the three rows locks them in whatever order its scan meets them (a row's new version moves),
  // so two games deadlocked, each waiting out PostgreSQL's 1 s deadlock check before one was retried:
  // 30 concurrent games made 14 a second instead of 216 (docs/scale.md, "The M=200 stall").
  const { rows } = await db.query<{ level: number; amount_cents: number }>(
    `WITH locked AS (
       SELECT level FROM jackpots WHERE brand_id = $1 AND level <= ${JACKPOT_CONTRIBUTION_BP.length} ORDER BY level FOR UPDATE
     )
     UPDATE jackpots j SET amount_cents = j.amount_cents + (($2::bigint * (ARRAY[${JACKPOT_CONTRIBUTION_BP.join(',')}])[j.level]) / 10000)
       FROM locked WHERE j.brand_id = $1 AND j.level = locked.level
       RETURNING j.level, j.amount_cents`,
    [brandId, betCents],
  );
  return rows
    .sort((a, b) => a.level - b.level)
    .map((r) => r.amount_cents)
    .join(',');
}

interface JackpotWin {
  playerId: number;
  machineId: number;
  sessionId: string;
  brandId: number;
  gameId: string;
}

interface JackpotPaid {
  level: number;
  amountCents: number;
  /** The brand's levels after the payment, as the lobby shows them. */
  levels: string;
}

/**
 * Pays the brand's top level once per game (a repeated report of the same game pays nothing), in
 * the caller's transaction: the game's record and its jackpot commit together (issue 23: paid after
 * the record's commit, a kill between the two lost the jackpot, since the re-sent game was found stored).
 */
export async function payJackpot(tx: Queryable, move: MoveFn, win: JackpotWin): Promise<JackpotPaid | null> {
  const { rows } = await tx.query<{ level: number; amount_cents: number; seed_cents: number }>(
    'SELECT level, amount_cents, seed_cents FROM jackpots WHERE brand_id = $1 ORDER BY level DESC LIMIT 1 FOR UPDATE',
    [win.brandId],
  );
  const level = rows[0];
  if (!level || level.amount_cents <= 0) return null;
  const moved = await move({
    kind: OperationKind.Jackpot,
    actionCode: ActionCode.Jackpot,
    playerId: win.playerId,
    idempotencyKey: `jackpot:${win.machineId}:${win.gameId}:${win.sessionId}`,
    from: { kind: 'house' },
    to: { kind: 'wallet', playerId: win.playerId },
    amountCents: level.amount_cents,
    machineId: win.machineId,
    sessionId: win.sessionId,
    tag: `jackpot level ${level.level}`,
  });
  if (moved.replayed) return null;
  await tx.query('UPDATE jackpots SET amount_cents = seed_cents WHERE brand_id = $1 AND level = $2', [win.brandId, level.level]);
  const after = await tx.query<{ amount_cents: number }>('SELECT amount_cents FROM jackpots WHERE brand_id = $1 ORDER BY level', [win.brandId]);
  return { level: level.level, amountCents: level.amount_cents, levels: after.rows.map((r) => r.amount_cents).join(',') };
}

/** Tells the lobbies a brand's levels (once the transaction that changed them committed), with the hit that reset one. */
export function publishJackpots(bus: Bus, brandId: number, jackpot: string, hit?: { machineId: number; paid: JackpotPaid }) {
  bus.publish(Topic.lobby, {
    event: 'jackpot',
    data: { brandId, jackpot, ...(hit ? { hit: { machineId: hit.machineId, amountCents: hit.paid.amountCents, level: hit.paid.level } } : {}) },
  });
}

/** Every brand's jackpot levels as the signal socket sends them ("top,middle,bottom" cents). */
export async function currentJackpots(db: Queryable): Promise<JackpotNotification[]> {
  const { rows } = await db.query<{ brand_id: number; jackpot: string }>(
    `SELECT b.id AS brand_id, coalesce(string_agg(j.amount_cents::text, ',' ORDER BY j.level), '') AS jackpot
       FROM brands b LEFT JOIN jackpots j ON j.brand_id = b.id GROUP BY b.id ORDER BY b.id`,
  );
  return rows.map((r) => ({ brandId: r.brand_id, jackpot: r.jackpot }));
}
