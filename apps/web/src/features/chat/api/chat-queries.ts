/**
 * The support chat's server data in the query cache: the contacts, the player's own chat user, and
 * the open conversation. Read afresh each time the panel opens (their observers mount with it);
 * the conversation is asked for by selecting a contact and by a chat push, and what the player
 * sends or sets is written into the cache from the server's answer.
 */
import type { Chat, ChatUser, Contact, ContactStatus } from '@reel/protocol/client';
import { useQuery } from '@tanstack/react-query';
import { queryClient } from '@/lib/query-client';
import { useChatStore } from '../stores/chat-store';
import { getChat } from './get-chat';
import { getChatUser } from './get-chat-user';
import { getContacts } from './get-contacts';
import { sendMessage } from './send-message';
import { updateChatUserData } from './update-chat-user-data';

const contactsKey = ['chat', 'contacts'] as const;
const userKey = ['chat', 'user'] as const;
const conversationKey = (contactId: string | null) => ['chat', 'conversation', contactId] as const;

export const useChatContacts = () => useQuery({ queryKey: contactsKey, queryFn: getContacts });
export const useChatUser = () => useQuery({ queryKey: userKey, queryFn: getChatUser });

/** The selected contact's conversation, as select and refresh last read it (it fetches nothing itself). */
export const useConversation = (contactId: string | null) =>
  useQuery({ queryKey: conversationKey(contactId), queryFn: () => fetchConversation(contactId!), enabled: false });

async function fetchConversation(contactId: string): Promise<Chat> {
  const { chat } = await getChat(contactId, queryClient.getQueryData<ChatUser>(userKey)?.id);
  return chat;
}

/** The open conversation is read, so its contact has nothing unread (the server clears its own too). */
function markRead(contactId: string): void {
  queryClient.setQueryData<Contact[]>(contactsKey, (contacts) =>
    contacts?.map((contact) => (contact.id === contactId ? { ...contact, unread: 0 } : contact)),
  );
}

/** Selecting clears the contact's unread count at once and reads its conversation anew. */
export async function selectContact(contactId: string): Promise<void> {
  useChatStore.getState().setSelected(contactId);
  markRead(contactId);
  queryClient.removeQueries({ queryKey: ['chat', 'conversation'] });
  await queryClient.fetchQuery({ queryKey: conversationKey(contactId), queryFn: () => fetchConversation(contactId) });
}

/**
 * Sends to the open conversation; false when there is nothing to send or no contact is selected. A
 * message typed while the selected conversation is still being read waits for it (the same
 * request) instead of being dropped.
 */
export async function sendToContact(text: string): Promise<boolean> {
  const messageText = text.trim();
  const contactId = useChatStore.getState().selectedContactId;
  if (!messageText || !contactId) return false;
  const chat = await queryClient.ensureQueryData({ queryKey: conversationKey(contactId), queryFn: () => fetchConversation(contactId) });
  const { message } = await sendMessage(chat.id, contactId, messageText);
  queryClient.setQueryData<Chat>(conversationKey(contactId), (open) => open && { ...open, dialog: [...open.dialog, message] });
  return true;
}

/** The player's own status, saved by the server (`POST /api/chat/user/data`), shown as it answers. */
export async function setMyStatus(status: ContactStatus): Promise<void> {
  queryClient.setQueryData(userKey, await updateChatUserData({ status }));
}

/**
 * A message arrived (the notification channel's chat info): while the panel is open, the contacts'
 * unread counts and the open conversation are read again.
 */
export async function refreshChat(): Promise<void> {
  const { open, selectedContactId: contactId } = useChatStore.getState();
  if (!open) return;
  await Promise.all([
    queryClient.fetchQuery({ queryKey: contactsKey, queryFn: getContacts, staleTime: 0 }),
    contactId ? queryClient.fetchQuery({ queryKey: conversationKey(contactId), queryFn: () => fetchConversation(contactId), staleTime: 0 }) : null,
  ]);
  if (contactId) markRead(contactId);
}

/** Closing forgets the selected contact and its conversation (spec section 4). */
export function forgetConversation(): void {
  queryClient.removeQueries({ queryKey: ['chat', 'conversation'] });
}
