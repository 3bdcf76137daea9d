import { create } from 'zustand';
import { local, StorageKey } from '@/lib/storage';
import { verifyPin } from '../api/verify-pin';

interface LockState {
  locked: boolean;
  deactivationPrompt: boolean;
  lock: () => void;
  unlock: (pin: string) => Promise<void>;
  clear: () => void;
  showDeactivation: (show: boolean) => void;
}

/** On reload the lock comes back when PIN_CHECK is on, the player has a PIN and the flag was stored. */
export function shouldRestoreLock(pinCheck: boolean): boolean {
  return pinCheck && local.get(StorageKey.pinCode) === '1' && local.get(StorageKey.lock) === '1';
}

export const useLockStore = create<LockState>((set) => ({
  locked: false,
  deactivationPrompt: false,
  lock: () => {
    local.set(StorageKey.lock, '1');
    set({ locked: true });
  },
  unlock: async (pin) => {
    await verifyPin(pin);
    local.remove(StorageKey.lock);
    set({ locked: false });
  },
  clear: () => {
    local.remove(StorageKey.lock);
    set({ locked: false, deactivationPrompt: false });
  },
  showDeactivation: (show) => set({ deactivationPrompt: show }),
}));
