import { ApiPath, type ChatUser, type ChatUserDataRequest } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

/** Saves the player's own chat data (status, mood); answers the updated chat user. */
export function updateChatUserData(data: ChatUserDataRequest): Promise<ChatUser> {
  return api.post<ChatUser>(ApiPath.chatUserData, data);
}
