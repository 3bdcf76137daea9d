/**
 * Staff members' chat status (online, away, do-not-disturb, offline). The player's support desk
 * contact shows the best of them, so a player sees whether anyone is there to answer.
 */
import type { ContactStatus } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';

/** Best first: the desk is online while anyone is, else away, else do-not-disturb. */
const STATUS_ORDER: ContactStatus[] = ['online', 'away', 'do-not-disturb', 'offline'];

/** SQL for the desk's status out of every staff member's (offline when nobody set one). */
export const DESK_STATUS_SQL = `coalesce((SELECT status FROM staff_chat_presence
   ORDER BY array_position(ARRAY['${STATUS_ORDER.join("','")}'], status) LIMIT 1), 'offline')`;
/** SQL for the desk's mood: the names of the staff online now. */
export const DESK_MOOD_SQL = `coalesce((SELECT string_agg(name, ', ' ORDER BY name) FROM staff_chat_presence
   WHERE status = 'online'), '')`;

export async function setStaffStatus(
  db: Queryable,
  staff: { id: number; name: string },
  status: ContactStatus,
): Promise<ContactStatus> {
  await db.query(
    `INSERT INTO staff_chat_presence (operator_id, name, status) VALUES ($1, $2, $3)
     ON CONFLICT (operator_id) DO UPDATE SET name = $2, status = $3, updated_at = now()`,
    [staff.id, staff.name, status],
  );
  return deskStatus(db);
}

async function deskStatus(db: Queryable): Promise<ContactStatus> {
  const { rows } = await db.query<{ status: ContactStatus }>(`SELECT ${DESK_STATUS_SQL} AS status`);
  return rows[0]?.status ?? 'offline';
}

export async function anyStaffOnline(db: Queryable): Promise<boolean> {
  return (await deskStatus(db)) === 'online';
}
