import type { StaffChatMessage, StaffChatPush, StaffConversation } from '@reel/protocol';
import type { QueryClient } from '@tanstack/react-query';

/** The conversation list's query; a thread's key adds the player (so invalidating this one asks both). */
export const CHAT_KEY = ['admin', 'chat'] as const;
export const threadKey = (playerId: number) => [...CHAT_KEY, playerId] as const;

const sameLine = (a: StaffChatMessage, b: StaffChatMessage) => a.time === b.time && a.from === b.from && a.message === b.message;

/** A line appended to a thread already loaded; one the thread has (a reply's answer and its push) is not added twice. */
export function addThreadLine(queryClient: QueryClient, playerId: number, message: StaffChatMessage) {
  queryClient.setQueryData<StaffChatMessage[]>(threadKey(playerId), (thread) =>
    thread && !thread.some((line) => sameLine(line, message)) ? [...thread, message] : thread,
  );
}

/** The staff channel's `chat` push: the line joins its thread, and its conversation goes to the top of the list. */
export function applyChatPush(queryClient: QueryClient, { conversation, message }: StaffChatPush) {
  addThreadLine(queryClient, conversation.playerId, message);
  queryClient.setQueryData<StaffConversation[]>(CHAT_KEY, (list) =>
    list ? [conversation, ...list.filter((known) => known.playerId !== conversation.playerId)] : list,
  );
}
