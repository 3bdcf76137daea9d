import { ApiPath, type SendMessageResponse } from '@reel/protocol/client';
import { api } from '@/lib/api-client';
import { i18next } from '@/lib/i18n';

/** Sent in the app's language: the server's automatic line (no staff online) answers in it. */
export function sendMessage(chatId: string, contactId: string, messageText: string) {
  return api.post<SendMessageResponse>(
    ApiPath.chatSendMessage,
    { chatId, contactId, messageText },
    { headers: { 'Accept-Language': i18next.language } },
  );
}
