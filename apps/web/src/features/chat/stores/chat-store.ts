import type { Chat, ChatUser, Contact, ContactStatus } from '@reel/protocol/client';
import { create } from 'zustand';
import { getChat } from '../api/get-chat';
import { getChatUser } from '../api/get-chat-user';
import { getContacts } from '../api/get-contacts';
import { sendMessage } from '../api/send-message';
import { updateChatUserData } from '../api/update-chat-user-data';

interface ChatState {
  open: boolean;
  contacts: Contact[];
  user: ChatUser | null;
  selectedContactId: string | null;
  chat: Chat | null;
  loading: boolean;
  toggle: () => void;
  openPanel: () => void;
  closePanel: () => void;
  load: () => Promise<void>;
  select: (contactId: string) => Promise<void>;
  send: (text: string) => Promise<boolean>;
  /** The player's own status, saved by the server (`POST /api/chat/user/data`), shown as it answers. */
  setStatus: (status: ContactStatus) => Promise<void>;
  /**
   * A message arrived (the notification channel's chat info): while the panel is open, the contacts'
   * unread counts and the open conversation are read again.
   */
  refresh: () => Promise<void>;
}

export const useChatStore = create<ChatState>((set, get) => ({
  open: false,
  contacts: [],
  user: null,
  selectedContactId: null,
  chat: null,
  loading: false,
  toggle: () => (get().open ? get().closePanel() : get().openPanel()),
  openPanel: () => {
    set({ open: true });
    void get().load();
  },
  // Closing forgets the selected contact (spec section 4).
  closePanel: () => set({ open: false, selectedContactId: null, chat: null }),
  load: async () => {
    set({ loading: true });
    try {
      const [contacts, user] = await Promise.all([getContacts(), getChatUser()]);
      set({ contacts, user });
    } finally {
      set({ loading: false });
    }
  },
  select: async (contactId) => {
    // Selecting clears the contact's unread count at once; the server clears its own on get-chat.
    set((state) => ({
      selectedContactId: contactId,
      chat: null,
      contacts: state.contacts.map((contact) =>
        contact.id === contactId ? { ...contact, unread: 0 } : contact,
      ),
    }));
    const { chat } = await getChat(contactId, get().user?.id);
    if (get().selectedContactId === contactId) set({ chat });
  },
  send: async (text) => {
    const messageText = text.trim();
    const { chat, selectedContactId } = get();
    if (!messageText || !chat || !selectedContactId) return false;
    const { message } = await sendMessage(chat.id, selectedContactId, messageText);
    set((state) => (state.chat ? { chat: { ...state.chat, dialog: [...state.chat.dialog, message] } } : {}));
    return true;
  },
  setStatus: async (status) => {
    const user = await updateChatUserData({ status });
    set({ user });
  },
  refresh: async () => {
    if (!get().open) return;
    const contactId = get().selectedContactId;
    const [contacts, opened] = await Promise.all([
      getContacts(),
      contactId ? getChat(contactId, get().user?.id) : Promise.resolve(null),
    ]);
    // The open conversation is read, so its contact has nothing unread (the server cleared it too).
    set({ contacts: contacts.map((contact) => (contact.id === contactId ? { ...contact, unread: 0 } : contact)) });
    if (opened && get().selectedContactId === contactId) set({ chat: opened.chat });
  },
}));
