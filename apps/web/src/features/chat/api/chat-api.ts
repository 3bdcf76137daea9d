import { ApiPath, type Chat, type ChatUser, type ChatUserDataRequest, type Contact } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

export interface ChatListEntry {
  chatId: string;
  contactId: string;
  lastMessageTime: string | null;
}

export const getContacts = () => api.get<Contact[] | { data: Contact[] }>(ApiPath.chatContacts);
export const getChatUser = () => api.get<ChatUser>(ApiPath.chatUser);
/** Saves the player's own chat data (status, mood); answers the updated chat user. */
export const updateChatUser = (data: ChatUserDataRequest) => api.post<ChatUser>(ApiPath.chatUserData, data);
export const getChat = (contactId: string, userId?: string) =>
  api.get<{ chat: Chat; userChatList: ChatListEntry[] }>(ApiPath.chatGetChat, { query: { contactId, userId } });
export const sendMessage = (chatId: string, contactId: string, messageText: string) =>
  api.post<{ message: Chat['dialog'][number]; userChatList: ChatListEntry[] }>(ApiPath.chatSendMessage, {
    chatId,
    contactId,
    messageText,
  });

/** The spec reads the contact list from `data`; accept a bare array too. */
export function contactsOf(response: Contact[] | { data: Contact[] }): Contact[] {
  return Array.isArray(response) ? response : Array.isArray(response?.data) ? response.data : [];
}
