/**
 * The staff side of the support chat: every conversation, newest first; one player's whole thread;
 * a staff reply, which the player's chat panel shows at once (the notification channel's chat info).
 */
import { SUPPORT_DESK_ID, type StaffChatMessage, type StaffConversation } from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import { errors } from '../../lib/errors.js';
import type { StaffActor } from '../operator-actions/actor.js';
import { announceChatLine } from './chat.js';

const CONVERSATIONS_MAX = 200;
const THREAD_MAX = 500;

interface MessageRow {
  from_player: boolean;
  operator_name: string | null;
  message: string;
  created_at: Date;
}

const toStaffMessage = (row: MessageRow): StaffChatMessage => ({
  from: row.from_player ? 'player' : row.operator_name === null ? 'automatic' : 'staff',
  staffName: row.from_player ? null : row.operator_name,
  message: row.message,
  time: row.created_at.toISOString(),
});

export function createStaffChat(db: Db, bus: Bus) {
  return {
    async conversations(): Promise<StaffConversation[]> {
      const { rows } = await db.query<{
        player_id: number;
        username: string;
        message: string;
        created_at: Date;
        from_player: boolean;
      }>(
        `SELECT DISTINCT ON (m.player_id) m.player_id, p.username, m.message, m.created_at, m.from_player
           FROM chat_messages m JOIN players p ON p.id = m.player_id
          ORDER BY m.player_id, m.id DESC`,
      );
      return rows
        .sort((a, b) => b.created_at.getTime() - a.created_at.getTime())
        .slice(0, CONVERSATIONS_MAX)
        .map((row) => ({
          playerId: row.player_id,
          username: row.username,
          lastMessage: row.message,
          lastMessageTime: row.created_at.toISOString(),
          waiting: row.from_player,
        }));
    },

    /** Every line between the player and support (the desk and any older agent), oldest first. */
    async thread(playerId: number): Promise<StaffChatMessage[]> {
      await requirePlayer(db, playerId);
      const { rows } = await db.query<MessageRow>(
        `SELECT from_player, operator_name, message, created_at FROM (
           SELECT id, from_player, operator_name, message, created_at FROM chat_messages
            WHERE player_id = $1 ORDER BY id DESC LIMIT $2) recent
          ORDER BY id`,
        [playerId, THREAD_MAX],
      );
      return rows.map(toStaffMessage);
    },

    async reply(staff: StaffActor, playerId: number, text: string): Promise<StaffChatMessage> {
      const message = text.trim();
      if (!message) throw errors.invalidRequest('the message is empty');
      await requirePlayer(db, playerId);
      const { rows } = await db.query<MessageRow>(
        `INSERT INTO chat_messages (player_id, agent_id, from_player, message, operator_id, operator_name)
         VALUES ($1, $2, false, $3, $4, $5)
         RETURNING from_player, operator_name, message, created_at`,
        [playerId, SUPPORT_DESK_ID, message, staff.id, staff.username],
      );
      announceChatLine(bus, playerId);
      return toStaffMessage(rows[0]!);
    },
  };
}

async function requirePlayer(db: Db, playerId: number) {
  const { rowCount } = await db.query('SELECT 1 FROM players WHERE id = $1', [playerId]);
  if (!rowCount) throw errors.notFound();
}
