import { ApiPath, type GetChatResponse } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

export function getChat(contactId: string, userId?: string) {
  return api.get<GetChatResponse>(ApiPath.chatGetChat, { query: { contactId, userId } });
}
