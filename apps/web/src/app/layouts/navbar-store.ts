import { create } from 'zustand';

interface NavbarState {
  /** Temporary drawer (mobile, and layout3 on every size). */
  mobileOpen: boolean;
  /** Desktop rail folded to 64 px (layout1). */
  folded: boolean;
  /** A folded rail opened by hovering. */
  foldedOpen: boolean;
  toggleMobile: () => void;
  closeMobile: () => void;
  toggleFolded: () => void;
  setFoldedOpen: (open: boolean) => void;
}

export const useNavbar = create<NavbarState>((set) => ({
  mobileOpen: false,
  folded: false,
  foldedOpen: false,
  toggleMobile: () => set((state) => ({ mobileOpen: !state.mobileOpen })),
  closeMobile: () => set({ mobileOpen: false }),
  toggleFolded: () => set((state) => ({ folded: !state.folded, foldedOpen: false })),
  setFoldedOpen: (foldedOpen) => set({ foldedOpen }),
}));
