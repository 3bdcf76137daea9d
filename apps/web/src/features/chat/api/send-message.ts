import { ApiPath, type Chat } from '@reel/protocol/client';
import { api } from '@/lib/api-client';
import type { ChatListEntry } from './chat-list-entry';

export function sendMessage(chatId: string, contactId: string, messageText: string) {
  return api.post<{ message: Chat['dialog'][number]; userChatList: ChatListEntry[] }>(
    ApiPath.chatSendMessage,
    {
      chatId,
      contactId,
      messageText,
    },
  );
}
