import { ApiPath, type SendMessageResponse } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

export function sendMessage(chatId: string, contactId: string, messageText: string) {
  return api.post<SendMessageResponse>(ApiPath.chatSendMessage, { chatId, contactId, messageText });
}
