import { ApiPath, type Chat } from '@reel/protocol/client';
import { api } from '@/lib/api-client';
import type { ChatListEntry } from './chat-list-entry';

export function getChat(contactId: string, userId?: string) {
  return api.get<{ chat: Chat; userChatList: ChatListEntry[] }>(ApiPath.chatGetChat, {
    query: { contactId, userId },
  });
}
