/** The quick panel's items: events and notes for everyone plus the player's own, newest first per kind. */
import type { Queryable } from '../../db/pool.js';

interface QuickPanelItem {
  id: string;
  kind: 'event' | 'note';
  title: string;
  detail: string;
}

export async function quickPanelItems(db: Queryable, playerId: number, perKind: number): Promise<QuickPanelItem[]> {
  const { rows } = await db.query<QuickPanelItem>(
    `SELECT id::text AS id, kind, title, detail FROM (
       SELECT id, kind, title, detail, row_number() OVER (PARTITION BY kind ORDER BY created_at DESC, id DESC) AS n
         FROM quick_panel_items WHERE player_id IS NULL OR player_id = $1) items
      WHERE n <= $2
      ORDER BY kind, id`,
    [playerId, perKind],
  );
  return rows;
}
