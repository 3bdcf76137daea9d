export interface ChatListEntry {
  chatId: string;
  contactId: string;
  lastMessageTime: string | null;
}
