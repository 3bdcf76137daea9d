import { create } from 'zustand';
import { toast } from '@/lib/toast-store';
import { messageForError } from '@/lib/auth';
import { updateUserSettings, useUserSettings } from '@/lib/user-settings';

interface NavbarState {
  /** Temporary drawer (phones and tablets in every layout). */
  mobileOpen: boolean;
  /** A folded desktop navbar opened by hovering. */
  foldedOpen: boolean;
  toggleMobile: () => void;
  closeMobile: () => void;
  setFoldedOpen: (open: boolean) => void;
}

export const useNavbarStore = create<NavbarState>((set) => ({
  mobileOpen: false,
  foldedOpen: false,
  toggleMobile: () => set((state) => ({ mobileOpen: !state.mobileOpen })),
  closeMobile: () => set({ mobileOpen: false }),
  setFoldedOpen: (foldedOpen) => set({ foldedOpen }),
}));

/**
 * The folded flag is the stored layout setting (spec section 3 "layout config"), saved like every
 * other setting: to the server for players, to this browser for guests. A reload keeps it.
 */
function toggleFolded() {
  useNavbarStore.setState({ foldedOpen: false });
  updateUserSettings((current) => ({ ...current, layout: { ...current.layout, navbarFolded: !current.layout.navbarFolded } })).catch((error) =>
    toast.error(messageForError(error)),
  );
}

export function useNavbar() {
  const state = useNavbarStore();
  const folded = useUserSettings((s) => s.settings.layout.navbarFolded);
  return { ...state, folded, toggleFolded };
}
