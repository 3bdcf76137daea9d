import type { StaffChatMessage, StaffConversation } from '@reel/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, fillPath } from '../lib/admin-api';
import { AdminChatPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';
import { SendForm } from '../components/send-form';
import { addThreadLine, threadKey } from './chat-cache';

/** One player's thread with the desk, newest last, and the reply box. */
export function ConversationThread({ conversation }: { conversation: StaffConversation }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const queryClient = useQueryClient();
  const params = { playerId: conversation.playerId };
  const query = useQuery({
    queryKey: threadKey(conversation.playerId),
    queryFn: () => adminApi.get<StaffChatMessage[]>(fillPath(AdminChatPath.conversation, params)),
    // New lines come on the staff channel (chat-cache.ts).
    staleTime: Infinity,
  });

  async function send(text: string) {
    const line = await adminApi.post<StaffChatMessage>(fillPath(AdminChatPath.reply, params), { message: text });
    // Shown at once, even before (or without) the channel's push of the same line.
    addThreadLine(queryClient, conversation.playerId, line);
  }

  return (
    <section className="admin-card admin-chat__thread" aria-label={conversation.username}>
      <h2>{conversation.username}</h2>
      <QueryState query={query}>
        {(messages) => (
          <ol className="admin-chat__messages">
            {messages.map((message, index) => (
              <li key={`${message.time}-${index}`} className={`admin-chat__message admin-chat__message--${message.from}`}>
                <span className="admin-muted">
                  {message.from === 'player' ? conversation.username : message.from === 'staff' ? message.staffName : t('support.automatic')} ·{' '}
                  {format.date(message.time)}
                </span>
                <p>{message.message}</p>
              </li>
            ))}
          </ol>
        )}
      </QueryState>
      <SendForm label={t('support.reply')} submit={t('support.send')} onSend={send} />
    </section>
  );
}
