/**
 * The operator console's support chat (issue 27): staff are the agents behind the player's one
 * support desk contact. Paths are relative to the API base, like `AdminPath` (every route declares STAFF).
 */
import { Type, type Static } from 'typebox';
import { ContactStatus } from './rest-chat.js';
import { IsoDate, Nullable } from './rest-fields.js';
import { Text } from './text.js';

/** The player's one support contact; every staff member answers as it. */
export const SUPPORT_DESK_ID = 'support';

export const AdminChatPath = {
  conversations: '/admin/chat/conversations',
  conversation: '/admin/chat/conversations/:playerId',
  reply: '/admin/chat/conversations/:playerId/reply',
  status: '/admin/chat/status',
} as const;

export const StaffChatStatusRequest = Type.Object({ status: ContactStatus }, { additionalProperties: false });
export type StaffChatStatusRequest = Static<typeof StaffChatStatusRequest>;
export const StaffChatStatus = Type.Object({ status: ContactStatus, deskStatus: ContactStatus });
export type StaffChatStatus = Static<typeof StaffChatStatus>;

export const StaffConversation = Type.Object({
  playerId: Type.Integer(),
  username: Type.String(),
  lastMessage: Type.String(),
  lastMessageTime: IsoDate('Last message'),
  /** The player spoke last: someone should answer. */
  waiting: Type.Boolean(),
});
export type StaffConversation = Static<typeof StaffConversation>;

export const StaffChatMessage = Type.Object({
  from: Type.Union([Type.Literal('player'), Type.Literal('staff'), Type.Literal('automatic')]),
  /** Who wrote a staff line; null for the player's own and the automatic line. */
  staffName: Nullable(Type.String()),
  message: Type.String(),
  time: IsoDate('Sent'),
});
export type StaffChatMessage = Static<typeof StaffChatMessage>;

/**
 * The staff channel's `chat` push (`/ws/admin`): a line just written in a support conversation (by
 * the player, a staff member or the automatic line) and that conversation's new head.
 */
export interface StaffChatPush {
  conversation: StaffConversation;
  message: StaffChatMessage;
}

export const StaffConversationParams = Type.Object({ playerId: Type.Integer({ minimum: 1 }) });
export const StaffReplyRequest = Type.Object(
  { message: Text({ minLength: 1, maxLength: 2000 }) },
  { additionalProperties: false },
);
export type StaffReplyRequest = Static<typeof StaffReplyRequest>;

export type ChatLanguage = 'en' | 'tr' | 'ar';
/** The automatic line, sent only while no staff member is online; it says so. */
export const chatNoStaffOnlineText: Record<ChatLanguage, string> = {
  en: 'No one from support is online right now. Your message is saved and a staff member will answer as soon as one is online.',
  tr: 'Şu anda çevrimiçi destek personeli yok. Mesajınız kaydedildi; bir personel çevrimiçi olur olmaz yanıtlayacak.',
  ar: 'لا يوجد أحد من فريق الدعم متصل الآن. تم حفظ رسالتك وسيرد أحد الموظفين فور اتصاله.',
};
