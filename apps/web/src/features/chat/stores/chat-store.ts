/**
 * The support chat panel's own state: whether it is open and which contact is selected. Its server
 * data (contacts, the player's chat user, the conversation) is in the query cache, chat-queries.ts,
 * which loads with the panel's lazy chunk.
 */
import { create } from 'zustand';

interface ChatState {
  open: boolean;
  selectedContactId: string | null;
  toggle: () => void;
  openPanel: () => void;
  closePanel: () => void;
  setSelected: (contactId: string) => void;
}

export const useChatStore = create<ChatState>((set, get) => ({
  open: false,
  selectedContactId: null,
  toggle: () => (get().open ? get().closePanel() : get().openPanel()),
  openPanel: () => set({ open: true }),
  // Closing forgets the selected contact (spec section 4); the panel's chunk drops its conversation.
  closePanel: () => set({ open: false, selectedContactId: null }),
  setSelected: (contactId) => set({ selectedContactId: contactId }),
}));
