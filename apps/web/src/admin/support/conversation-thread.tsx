import type { StaffChatMessage, StaffConversation } from '@reel/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { adminApi, fillPath } from '../lib/admin-api';
import { AdminChatPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';
import { errorText } from '../components/reason-dialog';

/** How often the conversations are asked again: the contract has no push for staff chat yet. */
export const CHAT_REFRESH_MS = 3_000;

/** One player's thread with the desk, newest last, and the reply box. */
export function ConversationThread({ conversation }: { conversation: StaffConversation }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const params = { playerId: conversation.playerId };
  const query = useQuery({
    queryKey: ['admin', 'chat', conversation.playerId],
    queryFn: () => adminApi.get<StaffChatMessage[]>(fillPath(AdminChatPath.conversation, params)),
    refetchInterval: CHAT_REFRESH_MS,
  });

  async function send(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await adminApi.post(fillPath(AdminChatPath.reply, params), { message: text.trim() });
      setText('');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'chat'] });
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
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
      <form className="admin-toolbar" onSubmit={(event) => void send(event)}>
        <TextField label={t('support.reply')} value={text} maxLength={2000} onChange={(event) => setText(event.target.value)} />
        <Button type="submit" busy={busy}>
          {t('support.send')}
        </Button>
      </form>
      <FormAlert>{error}</FormAlert>
    </section>
  );
}
