import { ApiPath, type ChatUser } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

export function getChatUser(): Promise<ChatUser> {
  return api.get<ChatUser>(ApiPath.chatUser);
}
