import type { OperatorView } from '@reel/protocol';
import { create } from 'zustand';
import { ConsoleStorageKey, session } from '@/lib/storage';

interface OperatorSessionState {
  /** The operator's bearer token for /api/admin only; the player's token is never used here. */
  token: string | null;
  /** Who the token belongs to, as the server last said (sign-in or `me`); null until asked. */
  operator: OperatorView | null;
}

/** The console's own sign-in, kept apart from the player's auth store and storage key. */
export const useOperatorSession = create<OperatorSessionState>(() => ({
  token: session.get(ConsoleStorageKey.operatorToken),
  operator: null,
}));

export function signInOperator(token: string, operator: OperatorView): void {
  session.set(ConsoleStorageKey.operatorToken, token);
  useOperatorSession.setState({ token, operator });
}

export function setOperator(operator: OperatorView): void {
  useOperatorSession.setState({ operator });
}

export function signOutOperator(): void {
  session.remove(ConsoleStorageKey.operatorToken);
  useOperatorSession.setState({ token: null, operator: null });
}

export const operatorToken = (): string | null => useOperatorSession.getState().token;
