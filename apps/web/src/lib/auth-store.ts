import type { BalanceNotification } from '@reel/protocol/client';
import { create } from 'zustand';

export interface AuthUser {
  id: number;
  name: string;
  lastname: string;
  email: string;
  username: string;
  displayName: string;
  /** The operator-set avatar URL (token claim `photoURL`); null shows the initial. */
  photoURL: string | null;
  group: string;
  permissions: number[];
  type: string;
  roles: string[];
  ipAddress: string;
  versions: string;
  lastLogon: string | null;
  lastLogonIp: string | null;
  /** True when the player has a PIN; the PIN itself never reaches the browser. */
  hasPin: boolean;
  shortcuts: string[];
}

export interface Wallet extends BalanceNotification {
  currency?: string;
}

type AuthStatus = 'checking' | 'authenticated' | 'guest';

interface AuthState {
  status: AuthStatus;
  user: AuthUser | null;
  token: string | null;
  wallet: Wallet | null;
  /** Where a guest wanted to go before being sent to /login. */
  redirectPath: string | null;
}

export const useAuthStore = create<AuthState>(() => ({
  status: 'checking',
  user: null,
  token: null,
  wallet: null,
  redirectPath: null,
}));

const EMPTY_WALLET: Wallet = { balance: 0, cash: 0, credit: 0, bonus: 0, discount: 0 };

/**
 * The one writer of the wallet. The balance reaches the browser from the REST balance call, the
 * notification socket and the game channel (cash in/out), each knowing a different part of it: what
 * an update leaves out is kept from the wallet it updates. `null` forgets the wallet (sign-out).
 */
export function updateWallet(update: Partial<Wallet> | null): void {
  useAuthStore.setState((state) => ({
    wallet: update === null ? null : { ...EMPTY_WALLET, ...state.wallet, ...update },
  }));
}

export function setShortcuts(shortcuts: string[]): void {
  const { user } = useAuthStore.getState();
  if (user) useAuthStore.setState({ user: { ...user, shortcuts } });
}

export function setRedirectPath(path: string | null): void {
  useAuthStore.setState({ redirectPath: path });
}
