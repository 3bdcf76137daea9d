/** REST schemas of the support chat and the quick panel (spec section 7; paths in paths.ts). */
import { Type, type Static } from 'typebox';
import { IsoDate, Nullable } from './rest-fields.js';
import { Text } from './text.js';

// --- Chat and quick panel ------------------------------------------------------------------

export const ContactStatus = Type.Union([
  Type.Literal('online'),
  Type.Literal('do-not-disturb'),
  Type.Literal('away'),
  Type.Literal('offline'),
]);
export type ContactStatus = Static<typeof ContactStatus>;
export const Contact = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    avatar: Type.String(),
    status: ContactStatus,
    mood: Type.String(),
    unread: Type.Integer(),
  },
  { $id: 'Contact' },
);
export type Contact = Static<typeof Contact>;

export const ChatListEntry = Type.Object({
  chatId: Text({ maxLength: 200 }),
  contactId: Text({ maxLength: 64 }),
  lastMessageTime: Nullable(IsoDate('Last message')),
});
export type ChatListEntry = Static<typeof ChatListEntry>;
export const ChatUser = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    avatar: Type.String(),
    status: ContactStatus,
    mood: Type.String(),
    chatList: Type.Array(ChatListEntry),
  },
  { $id: 'ChatUser' },
);
export type ChatUser = Static<typeof ChatUser>;

export const ChatMessage = Type.Object({ who: Type.String(), message: Type.String(), time: IsoDate('Sent at') });
export type ChatMessage = Static<typeof ChatMessage>;
export const Chat = Type.Object({ id: Type.String(), dialog: Type.Array(ChatMessage) }, { $id: 'Chat' });
export type Chat = Static<typeof Chat>;

export const GetChatQuery = Type.Object({ contactId: Text({ maxLength: 64 }), userId: Type.Optional(Text({ maxLength: 64 })) });
export const GetChatResponse = Type.Object({ chat: Chat, userChatList: Type.Array(ChatListEntry) }, { $id: 'GetChatResponse' });
export type GetChatResponse = Static<typeof GetChatResponse>;
export const SendMessageRequest = Type.Object({
  chatId: Text({ maxLength: 64 }),
  contactId: Text({ maxLength: 64 }),
  messageText: Text({ minLength: 1, maxLength: 2000, pattern: '\\S' }),
});
export const SendMessageResponse = Type.Object({ message: ChatMessage, userChatList: Type.Array(ChatListEntry) }, { $id: 'SendMessageResponse' });
export type SendMessageResponse = Static<typeof SendMessageResponse>;

/**
 * POST /api/chat/user/data: the chat user as the panel holds it. Only status and mood change;
 * the other fields are accepted so the panel can post its whole user object back.
 */
export const ChatUserDataRequest = Type.Object(
  {
    id: Type.Optional(Text({ maxLength: 64 })),
    name: Type.Optional(Text({ maxLength: 200 })),
    avatar: Type.Optional(Text({ maxLength: 2000 })),
    status: Type.Optional(ContactStatus),
    mood: Type.Optional(Text({ maxLength: 200 })),
    chatList: Type.Optional(Type.Array(ChatListEntry, { maxItems: 1000 })),
  },
  { $id: 'ChatUserDataRequest' },
);
export type ChatUserDataRequest = Static<typeof ChatUserDataRequest>;

export const QuickPanelItem = Type.Object({ id: Type.String(), title: Type.String(), detail: Type.String() });
export const QuickPanelData = Type.Object(
  { events: Type.Array(QuickPanelItem), notes: Type.Array(QuickPanelItem) },
  { $id: 'QuickPanelData' },
);
export type QuickPanelData = Static<typeof QuickPanelData>;
