import {
  PROTOCOL_VERSION,
  WsPath,
  type NotificationClientMessage,
  type NotificationServerEvents,
  type NotificationServerMessage,
} from '@reel/protocol/client';
import { backendSocketUrl } from '@/lib/api-client';
import { Backoff, type BackoffPolicy } from '@reel/process/backoff';
import { Emitter } from '@/lib/emitter';

export type SocketStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Every server event reaches its listeners with the stream position it was sent at. */
type NotificationEvents = { [E in keyof NotificationServerEvents]: [NotificationServerEvents[E], number] };

const RECONNECT_BACKOFF: BackoffPolicy = { initialMs: 500, maxMs: 10_000, jitter: 0.25 };
const PING_INTERVAL_MS = 25_000;


/**
 * The notification channel: one reconnecting socket per signed-in user. Features subscribe to
 * events by name; nothing here knows about React.
 */
class NotificationSocket {
  private socket: WebSocket | null = null;
  private status: SocketStatus = 'idle';
  private lastSeq: number | undefined;
  private readonly backoff = new Backoff(RECONNECT_BACKOFF);
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private identity: { id: number; token: string } | null = null;
  private readonly events = new Emitter<NotificationEvents>();
  private readonly statusEvents = new Emitter<{ status: [SocketStatus] }>();

  constructor(private readonly createSocket: (url: string) => WebSocket = (url) => new WebSocket(url)) {}

  getStatus(): SocketStatus {
    return this.status;
  }

  connect(id: number, token: string): void {
    this.identity = { id, token };
    this.clearTimers();
    this.socket?.close();
    this.open();
  }

  disconnect(): void {
    this.identity = null;
    this.lastSeq = undefined;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
    this.setStatus('closed');
  }

  on<E extends keyof NotificationServerEvents>(
    event: E,
    handler: (data: NotificationServerEvents[E], seq: number) => void,
  ): () => void {
    return this.events.on(event, handler);
  }

  onStatus(listener: (status: SocketStatus) => void): () => void {
    return this.statusEvents.on('status', listener);
  }

  /** Delivers a message as if the server had sent it (used by tests and the dev stress hook). */
  dispatch(message: NotificationServerMessage): void {
    if (typeof message.seq === 'number') this.lastSeq = message.seq;
    this.events.emit(message.event, message.data as never, message.seq);
  }

  private open(): void {
    if (!this.identity) return;
    const { id, token } = this.identity;
    this.setStatus(this.status === 'open' || this.status === 'reconnecting' ? 'reconnecting' : 'connecting');
    let socket: WebSocket;
    try {
      socket = this.createSocket(backendSocketUrl(WsPath.notifications, token));
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.backoff.reset();
      this.send({ event: 'init', data: { id, token, lastSeq: this.lastSeq, protocol: PROTOCOL_VERSION } });
      this.setStatus('open');
      this.pingTimer = setInterval(() => this.send({ event: 'ping', data: {} }), PING_INTERVAL_MS);
    };
    socket.onmessage = (event: MessageEvent) => {
      try {
        this.dispatch(JSON.parse(String(event.data)) as NotificationServerMessage);
      } catch {
        // A malformed frame is dropped; the next valid one carries the stream on.
      }
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearTimers();
      if (this.identity) this.scheduleReconnect();
      else this.setStatus('closed');
    };
    socket.onerror = () => socket.close();
  }

  private send(message: NotificationClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private scheduleReconnect(): void {
    this.setStatus('reconnecting');
    this.reconnectTimer = setTimeout(() => this.open(), this.backoff.next());
  }

  private clearTimers(): void {
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
  }

  private setStatus(status: SocketStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.statusEvents.emit('status', status);
  }
}

export const notificationSocket = new NotificationSocket();
