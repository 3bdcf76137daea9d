/**
 * The one way a support chat line is written, whoever writes it (the player, a staff member, the
 * automatic line): the row, then the console's push (`Topic.staffChat`, sent on `/ws/admin` as
 * `chat`) carrying the line and its conversation's new head, so the console appends instead of
 * asking again.
 */
import type { StaffChatMessage, StaffChatPush } from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import { Topic, type Bus } from '../../lib/bus.js';

export interface ChatLineRow {
  from_player: boolean;
  operator_name: string | null;
  message: string;
  created_at: Date;
}

export const toStaffMessage = (row: ChatLineRow): StaffChatMessage => ({
  from: row.from_player ? 'player' : row.operator_name === null ? 'automatic' : 'staff',
  staffName: row.from_player ? null : row.operator_name,
  message: row.message,
  time: row.created_at.toISOString(),
});

interface ChatLine {
  playerId: number;
  agentId: string;
  fromPlayer: boolean;
  message: string;
  /** The staff member who wrote it; absent for the player's own line and the automatic one. */
  operator?: { id: number; name: string };
}

export async function writeChatLine(db: Db, bus: Bus, line: ChatLine): Promise<ChatLineRow> {
  const { rows } = await db.query<ChatLineRow & { username: string }>(
    `WITH line AS (
       INSERT INTO chat_messages (player_id, agent_id, from_player, message, operator_id, operator_name)
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING player_id, from_player, operator_name, message, created_at)
     SELECT line.from_player, line.operator_name, line.message, line.created_at, p.username
       FROM line JOIN players p ON p.id = line.player_id`,
    [line.playerId, line.agentId, line.fromPlayer, line.message, line.operator?.id ?? null, line.operator?.name ?? null],
  );
  const row = rows[0]!;
  const push: StaffChatPush = {
    conversation: {
      playerId: line.playerId,
      username: row.username,
      lastMessage: row.message,
      lastMessageTime: row.created_at.toISOString(),
      waiting: row.from_player,
    },
    message: toStaffMessage(row),
  };
  bus.publish(Topic.staffChat, push);
  return row;
}
