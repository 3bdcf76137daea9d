import { CONTACT_STATUSES, type ContactStatus } from '@reel/protocol/client';
import { useTranslation } from 'react-i18next';
import { messageForError } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import { setMyStatus, useChatUser } from '../api/chat-queries';

/**
 * The player's own chat status, as support agents see it: saved through `POST /api/chat/user/data`
 * and shown from the server's answer (the chat user it returns).
 */
export function MyStatus() {
  const { t } = useTranslation();
  const { data: user } = useChatUser();
  if (!user) return null;
  return (
    <label className="chat__my-status">
      <span className={`status-dot status-dot--${user.status}`} aria-hidden="true" />
      <span>{t('chat.myStatus')}</span>
      <select
        className="field__input"
        value={user.status}
        onChange={(event) => void setMyStatus(event.target.value as ContactStatus).catch((error) => toast.error(messageForError(error)))}
      >
        {CONTACT_STATUSES.map((status) => (
          <option key={status} value={status}>
            {t(`chat.status.${status}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
