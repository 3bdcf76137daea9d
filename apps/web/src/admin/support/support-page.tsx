import type { StaffConversation } from '@reel/protocol';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../lib/admin-api';
import { AdminChatPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';
import { useAdminChannel } from '../lib/admin-channel';
import { CHAT_KEY } from './chat-cache';
import { ConversationThread } from './conversation-thread';
import { StaffStatusSelect } from './staff-status-select';

/** Every player's conversation with the support desk, the open one's thread, and my own status. */
export function SupportPage() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const [open, setOpen] = useState<StaffConversation | null>(null);
  const query = useQuery({
    queryKey: CHAT_KEY,
    queryFn: () => adminApi.get<StaffConversation[]>(AdminChatPath.conversations),
    // The staff channel keeps it current (chat-cache.ts), and asks again after a reconnect.
    staleTime: Infinity,
  });
  useAdminChannel();
  return (
    <section className="admin-page">
      <h1>{t('support.heading')}</h1>
      <StaffStatusSelect />
      <div className="admin-chat">
        <nav aria-label={t('support.conversations')} className="admin-card admin-chat__list">
          <h2>{t('support.conversations')}</h2>
          <QueryState query={query}>
            {(conversations) =>
              conversations.length === 0 ? (
                <p className="admin-muted">{t('common.none')}</p>
              ) : (
                <ul>
                  {conversations.map((conversation) => (
                    <li key={conversation.playerId}>
                      <button
                        type="button"
                        className="admin-chat__item"
                        aria-current={open?.playerId === conversation.playerId || undefined}
                        onClick={() => setOpen(conversation)}
                      >
                        <strong>{conversation.username}</strong>
                        {conversation.waiting ? <span className="admin-badge admin-badge--warn">{t('support.waiting')}</span> : null}
                        <span className="admin-muted">{conversation.lastMessage}</span>
                        <span className="admin-muted">{format.date(conversation.lastMessageTime)}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )
            }
          </QueryState>
        </nav>
        {open ? <ConversationThread key={open.playerId} conversation={open} /> : <p className="admin-muted">{t('support.noConversation')}</p>}
      </div>
    </section>
  );
}
