/**
 * Support chat between a player and the support desk, whose agents are the staff (staff-chat.ts
 * answers from the console). Messages persist per (player, agent) pair; agent messages stay unread
 * until the player opens that conversation. While no staff member is online, a new message gets
 * the automatic line a moment later, saying so, so a player is never left talking to nobody.
 */
import {
  ChatAction,
  Code,
  SUPPORT_DESK_ID,
  chatNoStaffOnlineText,
  type ChatLanguage,
  type ChatListEntry,
  type ChatMessage,
  type ChatUser,
  type Contact,
} from '@reel/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/pool.js';
import { Topic, type Bus } from '../../lib/bus.js';
import { writeChatLine } from './chat-lines.js';
import { DESK_MOOD_SQL, DESK_STATUS_SQL, anyStaffOnline } from './staff-presence.js';

type ChatStatus = Contact['status'];

export const ACK_DELAY_MS = 1000;
/** No second acknowledgement while the agent spoke this recently. */
const ACK_QUIET_MS = 60_000;
const DIALOG_MAX = 500;

export const chatIdFor = (playerId: number, agentId: string) => `${playerId}-${agentId}`;

/** The two halves of a chat id; null when it is not one of ours at all. */
export function parseChatId(chatId: string): { playerId: number; agentId: string } | null {
  const match = /^(\d{1,10})-(.+)$/.exec(chatId);
  if (!match) return null;
  const playerId = Number(match[1]);
  return Number.isSafeInteger(playerId) ? { playerId, agentId: match[2]! } : null;
}

/** The player's language for the automatic line, from the request's Accept-Language (en by default). */
export function chatLanguage(acceptLanguage: string | undefined): ChatLanguage {
  const first = acceptLanguage?.split(',')[0]?.trim().slice(0, 2).toLowerCase();
  return first === 'tr' || first === 'ar' ? first : 'en';
}

/** Tells every signed-in channel of the player that a chat line arrived (the panel refreshes). */
export function announceChatLine(bus: Bus, playerId: number): void {
  bus.publish(Topic.player(playerId), {
    event: 'info',
    data: { code: Code.Success, params: {}, message: 'chat', action: ChatAction.Message },
  });
}

interface Agent {
  id: string;
  name: string;
  status: ChatStatus;
}

export function createChatService(db: Db, bus: Bus, log: FastifyBaseLogger) {
  const pending = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  async function playerName(playerId: number) {
    const { rows } = await db.query<{ name: string; lastname: string; username: string }>(
      'SELECT name, lastname, username FROM players WHERE id = $1',
      [playerId],
    );
    const p = rows[0];
    return { full: `${p?.name ?? ''} ${p?.lastname ?? ''}`.trim() || p?.username || '' };
  }

  async function chatList(playerId: number): Promise<ChatListEntry[]> {
    const { rows } = await db.query<{ agent_id: string; last: Date }>(
      `SELECT agent_id, max(created_at) AS last FROM chat_messages WHERE player_id = $1
        GROUP BY agent_id ORDER BY last DESC, agent_id`,
      [playerId],
    );
    return rows.map((r) => ({
      chatId: chatIdFor(playerId, r.agent_id),
      contactId: r.agent_id,
      lastMessageTime: r.last.toISOString(),
    }));
  }

  const toMessage = (
    playerId: number,
    agentId: string,
    row: { from_player: boolean; message: string; created_at: Date },
  ): ChatMessage => ({
    who: row.from_player ? String(playerId) : agentId,
    message: row.message,
    time: row.created_at.toISOString(),
  });

  async function acknowledge(playerId: number, agentId: string, language: ChatLanguage) {
    // A staff member may have come online or answered, or the line went out already, while the timer ran.
    if (closed || (await anyStaffOnline(db))) return;
    const { rows } = await db.query<{ recent: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM chat_messages WHERE player_id = $1 AND agent_id = $2 AND NOT from_player
                        AND created_at > now() - make_interval(secs => $3)) AS recent`,
      [playerId, agentId, ACK_QUIET_MS / 1000],
    );
    if (rows[0]?.recent || closed) return;
    await writeChatLine(db, bus, { playerId, agentId, fromPlayer: false, message: chatNoStaffOnlineText[language] });
    announceChatLine(bus, playerId);
  }

  function scheduleAck(playerId: number, agentId: string, language: ChatLanguage) {
    const key = chatIdFor(playerId, agentId);
    if (closed || pending.has(key)) return;
    const timer = setTimeout(() => {
      pending.delete(key);
      if (closed) return;
      const work = acknowledge(playerId, agentId, language)
        .catch((error: unknown) => log.warn({ err: error, agentId }, 'chat acknowledgement failed'))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    }, ACK_DELAY_MS);
    // A pending acknowledgement is no reason to keep the process running.
    timer.unref();
    pending.set(key, timer);
  }

  return {
    chatList,

    async agent(agentId: string): Promise<Agent | null> {
      const { rows } = await db.query<Agent>('SELECT id, name, status FROM chat_agents WHERE id = $1', [
        agentId,
      ]);
      return rows[0] ?? null;
    },

    async contacts(playerId: number): Promise<Contact[]> {
      // The desk shows its staff's real status; an old agent only while the player has a thread with it.
      const { rows } = await db.query<Contact>(
        `SELECT a.id, a.name, a.avatar,
                CASE WHEN a.id = $2 THEN ${DESK_STATUS_SQL} ELSE a.status END AS status,
                CASE WHEN a.id = $2 THEN ${DESK_MOOD_SQL} ELSE a.mood END AS mood,
                (SELECT count(*) FROM chat_messages m
                  WHERE m.player_id = $1 AND m.agent_id = a.id AND NOT m.from_player AND m.read_at IS NULL)::int AS unread
           FROM chat_agents a
          WHERE a.id = $2 OR EXISTS (SELECT 1 FROM chat_messages m WHERE m.player_id = $1 AND m.agent_id = a.id)
          ORDER BY a.id = $2 DESC, a.id`,
        [playerId, SUPPORT_DESK_ID],
      );
      return rows;
    },

    async user(playerId: number): Promise<ChatUser> {
      const [{ full }, profile, list] = await Promise.all([
        playerName(playerId),
        db.query<{ status: ChatStatus; mood: string }>(
          'SELECT status, mood FROM chat_profiles WHERE player_id = $1',
          [playerId],
        ),
        chatList(playerId),
      ]);
      return {
        id: String(playerId),
        name: full,
        avatar: '',
        status: profile.rows[0]?.status ?? 'online',
        mood: profile.rows[0]?.mood ?? '',
        chatList: list,
      };
    },

    async updateUser(
      playerId: number,
      change: { status?: ChatStatus | undefined; mood?: string | undefined },
    ) {
      await db.query(
        `INSERT INTO chat_profiles (player_id, status, mood) VALUES ($1, coalesce($2, 'online'), coalesce($3, ''))
         ON CONFLICT (player_id) DO UPDATE
           SET status = coalesce($2, chat_profiles.status), mood = coalesce($3, chat_profiles.mood), updated_at = now()`,
        [playerId, change.status ?? null, change.mood ?? null],
      );
    },

    /** The conversation with one agent, oldest first; opening it reads the agent's messages. */
    async dialog(playerId: number, agentId: string): Promise<ChatMessage[]> {
      await db.query(
        `UPDATE chat_messages SET read_at = now()
          WHERE player_id = $1 AND agent_id = $2 AND NOT from_player AND read_at IS NULL`,
        [playerId, agentId],
      );
      const { rows } = await db.query<{ from_player: boolean; message: string; created_at: Date }>(
        `SELECT from_player, message, created_at FROM (
           SELECT id, from_player, message, created_at FROM chat_messages
            WHERE player_id = $1 AND agent_id = $2 ORDER BY id DESC LIMIT $3) recent
          ORDER BY id`,
        [playerId, agentId, DIALOG_MAX],
      );
      return rows.map((r) => toMessage(playerId, agentId, r));
    },

    async send(playerId: number, agent: Agent, text: string, language: ChatLanguage): Promise<ChatMessage> {
      const row = await writeChatLine(db, bus, { playerId, agentId: agent.id, fromPlayer: true, message: text });
      if (!(await anyStaffOnline(db))) scheduleAck(playerId, agent.id, language);
      return toMessage(playerId, agent.id, row);
    },

    async close() {
      closed = true;
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}
