/**
 * What the game channel needs from the browser: a WebSocket and the online/offline/visible signals.
 * Kept apart so tests give the channel their own socket and environment.
 */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
}

/** Browser signals the channel reacts to; a test passes its own. */
export interface Environment {
  isOnline(): boolean;
  isVisible(): boolean;
  subscribe(handlers: { online(): void; offline(): void; visible(): void }): () => void;
}

export const browserEnvironment: Environment = {
  isOnline: () => navigator.onLine !== false,
  isVisible: () => document.visibilityState !== 'hidden',
  subscribe({ online, offline, visible }) {
    const onVisibility = () => document.visibilityState === 'visible' && visible();
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  },
};
