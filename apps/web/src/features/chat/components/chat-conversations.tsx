import { CHAT_TIME_FORMAT, ChatAction, Layout, type Contact } from '@reel/protocol/client';
import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat';
import 'dayjs/locale/ar';
import 'dayjs/locale/tr';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SidePanel } from '@/components/ui/side-panel';
import { Icon } from '@/components/ui/icon';
import { messageForError } from '@/lib/auth';
import { notificationSocket } from '@/lib/notification-socket';
import { QueryRoot } from '@/lib/query-client';
import { toast } from '@/lib/toast-store';
import {
  forgetConversation,
  refreshChat,
  selectContact,
  sendToContact,
  useChatContacts,
  useChatUser,
  useConversation,
} from '../api/chat-queries';
import { useChatStore } from '../stores/chat-store';
import { MyStatus } from './my-status';

dayjs.extend(advancedFormat);

function formatChatTime(iso: string, language = 'en'): string {
  return dayjs(iso).locale(language).format(CHAT_TIME_FORMAT);
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

/** The open panel, loaded as its own chunk with the query library when the player first opens it. */
export function ChatConversations() {
  return (
    <QueryRoot>
      <Conversations />
    </QueryRoot>
  );
}

const NO_CONTACTS: Contact[] = [];

function Conversations() {
  const { t, i18n } = useTranslation();
  const selectedContactId = useChatStore((state) => state.selectedContactId);
  const closePanel = useChatStore((state) => state.closePanel);
  const { data: contacts = NO_CONTACTS } = useChatContacts();
  const { data: user } = useChatUser();
  const { data: chat } = useConversation(selectedContactId);
  const [text, setText] = useState('');
  const messagesRef = useRef<HTMLDivElement>(null);
  const selected = contacts.find((contact) => contact.id === selectedContactId) ?? null;

  useEffect(() => {
    messagesRef.current?.scrollTo({ top: messagesRef.current.scrollHeight });
  }, [chat?.dialog.length]);

  // A support agent's answer arrives as an info push: the open conversation shows it at once.
  useEffect(
    () =>
      notificationSocket.on('info', (info) => {
        if (info.action === ChatAction.Message) void refreshChat().catch(() => undefined);
      }),
    [],
  );
  // Closing forgets the selected contact's conversation (spec section 4).
  useEffect(() => forgetConversation, []);

  const onSend = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    try {
      if (await sendToContact(text)) setText('');
    } catch (error) {
      toast.error(messageForError(error));
    }
  };

  return (
    <SidePanel
      onClose={closePanel}
      title={t('chat.title')}
      closeLabel={t('common.close')}
      widthPx={Layout.chatPanelWidth}
    >
      <div className="chat">
        <ul className="chat__contacts" aria-label={t('chat.contacts')}>
          {contacts.map((contact) => (
            <li key={contact.id}>
              <button
                type="button"
                className="chat__contact"
                aria-pressed={contact.id === selectedContactId}
                onClick={() => void selectContact(contact.id).catch((error) => toast.error(messageForError(error)))}
              >
                <span className="avatar" aria-hidden="true">
                  {initials(contact.name)}
                  <span className={`status-dot status-dot--${contact.status}`} />
                </span>
                <span className="chat__contact-name">{contact.name}</span>
                <span className="visually-hidden">{t(`chat.status.${contact.status}`)}</span>
                {contact.unread > 0 ? (
                  <span className="badge" aria-label={t('chat.unread', { count: contact.unread })}>
                    {contact.unread}
                  </span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
        <div className="chat__main">
          <MyStatus />
          {!selected ? (
            <p className="chat__empty">{t('chat.selectContact')}</p>
          ) : (
            <>
              <div className="chat__header">
                <strong>{selected.name}</strong>
                <span className="muted">{t(`chat.status.${selected.status}`)}</span>
              </div>
              <div className="chat__messages" ref={messagesRef} aria-live="polite">
                {chat && chat.dialog.length === 0 ? (
                  <p className="chat__empty">{t('chat.startConversation')}</p>
                ) : null}
                {chat?.dialog.map((message, index) => {
                  const mine = message.who === user?.id;
                  return (
                    <div key={`${message.time}-${index}`} className={`bubble${mine ? ' bubble--mine' : ''}`}>
                      <p>{message.message}</p>
                      <time dateTime={message.time}>{formatChatTime(message.time, i18n.language)}</time>
                    </div>
                  );
                })}
              </div>
              <form className="chat__composer" onSubmit={onSend}>
                <input
                  className="field__input"
                  placeholder={t('chat.placeholder')}
                  aria-label={t('chat.placeholder')}
                  value={text}
                  onChange={(event) => setText(event.target.value)}
                />
                <button
                  type="submit"
                  className="icon-btn icon-btn--accent"
                  aria-label={t('chat.send')}
                  disabled={!text.trim()}
                >
                  <Icon name="send" size={22} />
                </button>
              </form>
            </>
          )}
        </div>
      </div>
    </SidePanel>
  );
}
