/**
 * The staff side of the support chat: every conversation, newest first; one player's whole thread;
 * a staff reply, which the player's chat panel shows at once (the notification channel's chat info)
 * and the other consoles get pushed (chat-lines.ts).
 */
import { SUPPORT_DESK_ID, type StaffChatMessage, type StaffConversation } from '@reel/protocol';
import type { Db } from '../../db/pool.js';
import type { Bus } from '../../lib/bus.js';
import { errors } from '../../lib/errors.js';
import type { StaffActor } from '../operator-actions/actor.js';
import { announceChatLine } from './chat.js';
import { toStaffMessage, writeChatLine, type ChatLineRow } from './chat-lines.js';

const CONVERSATIONS_MAX = 200;
const THREAD_MAX = 500;

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
      const { rows } = await db.query<ChatLineRow>(
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
      const row = await writeChatLine(db, bus, {
        playerId,
        agentId: SUPPORT_DESK_ID,
        fromPlayer: false,
        message,
        operator: { id: staff.id, name: staff.username },
      });
      announceChatLine(bus, playerId);
      return toStaffMessage(row);
    },
  };
}

async function requirePlayer(db: Db, playerId: number) {
  const { rowCount } = await db.query('SELECT 1 FROM players WHERE id = $1', [playerId]);
  if (!rowCount) throw errors.notFound();
}
