/**
 * The game channel (`/ws/game`): one reconnecting WebSocket per game screen. Framework-free, like
 * the video connection: typed events, an explicit status, named backoff constants. React reads it
 * through `useGameChannel`.
 *
 * Reconnecting sends `init` again; the server resumes the open session. A drop while the browser
 * says it is offline is not retried blindly: after a long outage the session may have changed on
 * the server (grace period, countdown, another device), so the channel waits in `interrupted` for
 * the player to confirm (`resume()`), which the game screen asks with the reconnect dialog.
 */
import {
  Code,
  PROTOCOL_VERSION,
  SessionAction,
  WsCloseCode,
  WsPath,
  type AutoplayStops,
  type GameClientEvents,
  type GameServerMessage,
  type StreamGrant,
  type VideoType,
} from '@reel/protocol/client';
import { backendSocketUrl } from '@/lib/api-client';
import { Backoff } from '@reel/process/backoff';
import { Emitter } from '@/lib/emitter';
import { browserEnvironment, type Environment, type SocketLike } from './channel-environment';
import { GameChannelStatus, LONG_OUTAGE_MS, RECONNECT_BACKOFF } from './channel-status';
import type { GameChannelEvents, GameChannelOptions, GameError } from './game-channel-types';
import { StreamRequests } from './stream-requests';

export type { JoinedData } from './game-channel-types';

/** `leave` waits this long for the server's `closed` before the socket is shut anyway. */
const LEAVE_TIMEOUT_MS = 2_000;

const OPEN = 1;

/**
 * On the backend's host (API_URL), like every other call: a front end served elsewhere plays too.
 * The machine in the query lets a cluster's HAProxy send the socket to its shard's owner.
 */
function gameChannelUrl(token: string, machineId: number): string {
  return `${backendSocketUrl(WsPath.game, token)}&machineId=${machineId}`;
}

function newCommandId(): string {
  return (
    globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
  );
}

export class GameChannel {
  private status: GameChannelStatus = GameChannelStatus.Idle;
  private socket: SocketLike | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private offlineSinceMs: number | null = null;
  private unsubscribeEnvironment: (() => void) | null = null;
  private readonly events = new Emitter<GameChannelEvents>();
  private readonly backoff: Backoff;
  private readonly streams = new StreamRequests({
    askForStream: () => this.send('stream', {}),
    rejoin: () => this.sendInit(),
  });
  private disposed = false;
  private joinedOnce = false;
  private readonly env: Environment;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly options: GameChannelOptions) {
    this.env = options.environment ?? browserEnvironment;
    this.now = options.now ?? (() => Date.now());
    this.backoff = new Backoff(RECONNECT_BACKOFF, options.random ?? Math.random);
    this.newId = options.newId ?? newCommandId;
  }

  getStatus(): GameChannelStatus {
    return this.status;
  }

  /** True once the server has answered `joined` at least once on this screen. */
  hasJoined(): boolean {
    return this.joinedOnce;
  }

  on<E extends keyof GameChannelEvents>(
    event: E,
    listener: (...args: GameChannelEvents[E]) => void,
  ): () => void {
    return this.events.on(event, listener);
  }

  start(): void {
    if (this.disposed || this.status !== GameChannelStatus.Idle) return;
    this.unsubscribeEnvironment = this.env.subscribe({
      online: () => this.onOnline(),
      offline: () => this.onOffline(),
      visible: () => this.onVisible(),
    });
    if (!this.env.isOnline()) {
      this.offlineSinceMs = this.now();
      this.setStatus(GameChannelStatus.Offline);
      return;
    }
    this.open();
  }

  /** Joins again after an interruption (the reconnect dialog's Continue). */
  resume(): void {
    if (this.disposed || this.status === GameChannelStatus.Closed || this.status === GameChannelStatus.Failed)
      return;
    this.offlineSinceMs = null;
    this.backoff.reset();
    clearTimeout(this.retryTimer);
    if (this.socket?.readyState === OPEN) this.sendInit();
    else this.open();
  }

  spin(): string {
    const commandId = this.newId();
    this.send('spin', { commandId });
    return commandId;
  }

  setBetLevel(level: number): void {
    this.send('bet', { commandId: this.newId(), level });
  }

  /** Turning it on carries the player's stops; the server ends autoplay at the first reached. */
  setAutoplay(on: boolean, stops?: AutoplayStops): void {
    this.send('autoplay', { commandId: this.newId(), on, ...(on && stops ? { stops } : {}) });
  }

  /** Each call is a new cash in with its own idempotency key (a retry of one request reuses it). */
  cashIn(amountCents: number): string {
    const idempotencyKey = this.newId();
    this.send('cashin', { amountCents, idempotencyKey });
    return idempotencyKey;
  }

  cashOut(): void {
    this.send('cashout', {});
  }

  setBand(bandId: string): void {
    this.send('band', { bandId });
  }

  /** The server answers with a `machine` view carrying the videoType (or an error, 40302). */
  setVideoType(videoType: VideoType): void {
    this.send('view', { videoType });
  }

  /** A fresh stream grant for the video (stream-requests.ts). */
  requestStream(): Promise<StreamGrant> {
    return this.streams.next(this.status === GameChannelStatus.Joined && this.socket?.readyState === OPEN);
  }

  /** Leaving on purpose: the server cashes out and closes. Resolves when it is done or timed out. */
  leave(): Promise<void> {
    const socket = this.socket;
    const joined = this.status === GameChannelStatus.Joined && socket?.readyState === OPEN;
    if (!joined) {
      this.dispose();
      return Promise.resolve();
    }
    this.send('leave', {});
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        off();
        this.dispose();
        resolve();
      };
      const timer = setTimeout(finish, LEAVE_TIMEOUT_MS);
      const off = this.on('closed', finish);
    });
  }

  /** Stops everything without telling the server anything more (the session may be resumed later). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.retryTimer);
    this.streams.stop();
    this.unsubscribeEnvironment?.();
    this.unsubscribeEnvironment = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000, 'left');
    }
    if (this.status !== GameChannelStatus.Failed) this.setStatus(GameChannelStatus.Closed);
  }

  // --- internals -------------------------------------------------------------------------------

  private open(): void {
    if (this.disposed) return;
    const token = this.options.getToken();
    if (!token) {
      this.fail({ code: Code.InvalidAccessToken, ErrorMessage: 'Invalid access_token', fatal: true });
      return;
    }
    this.setStatus(this.joinedOnce ? GameChannelStatus.Reconnecting : GameChannelStatus.Connecting);
    const url = this.options.url ? this.options.url(token) : gameChannelUrl(token, this.options.machineId);
    let socket: SocketLike;
    try {
      socket = this.options.createSocket
        ? this.options.createSocket(url)
        : (new WebSocket(url) as unknown as SocketLike);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket === socket) this.sendInit();
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      let message: GameServerMessage;
      try {
        message = JSON.parse(String(event.data)) as GameServerMessage;
      } catch {
        return;
      }
      this.handle(message);
    };
    socket.onerror = () => socket.close();
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.onSocketClosed(event.code);
    };
  }

  private sendInit(): void {
    const token = this.options.getToken();
    if (!token) return;
    this.send('init', { machineID: this.options.machineId, token, protocol: PROTOCOL_VERSION });
  }

  private handle(message: GameServerMessage): void {
    switch (message.event) {
      case 'joined':
        this.backoff.reset();
        this.joinedOnce = true;
        this.streams.answered();
        this.setStatus(GameChannelStatus.Joined);
        this.emit('joined', message.data);
        if (message.data.stream) this.streams.answered(message.data.stream);
        return;
      case 'stream':
        this.streams.answered();
        this.emit('stream', message.data);
        this.streams.answered(message.data);
        return;
      case 'error':
        if (message.data.fatal) return this.fail(message.data);
        this.emit('error', message.data);
        return;
      case 'info':
        // The answer to our own ping carries nothing for the player.
        if (
          message.data.code === Code.Success &&
          message.data.action === '' &&
          message.data.message === 'pong'
        )
          return;
        this.emit('info', message.data);
        if (message.data.action === SessionAction.QuitRequest) this.finish();
        return;
      case 'closed':
        this.emit('closed', message.data);
        this.finish();
        return;
      default:
        this.emit(message.event, message.data as never);
    }
  }

  /** The session is over on the server: no reconnecting. */
  private finish(): void {
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, 'closed');
    }
    this.setStatus(GameChannelStatus.Closed);
  }

  private fail(error: GameError): void {
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, 'join failed');
    }
    this.setStatus(GameChannelStatus.Failed);
    this.emit('fatal', error);
  }

  private onSocketClosed(code: number): void {
    if (this.disposed || this.status === GameChannelStatus.Closed || this.status === GameChannelStatus.Failed)
      return;
    if (code === WsCloseCode.QuitRequest || code === WsCloseCode.InvalidToken) {
      this.setStatus(GameChannelStatus.Closed);
      return;
    }
    if (!this.env.isOnline()) {
      this.offlineSinceMs ??= this.now();
      this.setStatus(GameChannelStatus.Offline);
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    clearTimeout(this.retryTimer);
    this.setStatus(this.joinedOnce ? GameChannelStatus.Reconnecting : GameChannelStatus.Connecting);
    const delayMs = this.backoff.next();
    this.retryTimer = setTimeout(() => this.open(), delayMs);
  }

  private onOffline(): void {
    if (this.disposed || this.status === GameChannelStatus.Closed || this.status === GameChannelStatus.Failed)
      return;
    this.offlineSinceMs ??= this.now();
    clearTimeout(this.retryTimer);
    // A socket over a dead network only learns it much later; close it now so the server starts
    // the grace period at once and nothing is sent into the void.
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, 'offline');
    }
    this.setStatus(GameChannelStatus.Offline);
  }

  private onOnline(): void {
    if (this.status !== GameChannelStatus.Offline) return;
    const outageMs = this.offlineSinceMs === null ? 0 : this.now() - this.offlineSinceMs;
    if (this.joinedOnce && outageMs >= LONG_OUTAGE_MS) {
      this.setStatus(GameChannelStatus.Interrupted);
      this.emit('interrupted', outageMs);
      return;
    }
    this.offlineSinceMs = null;
    this.backoff.reset();
    this.open();
  }

  private onVisible(): void {
    // A backgrounded tab's timers are throttled; try at once instead of waiting out the backoff.
    if (this.status !== GameChannelStatus.Reconnecting && this.status !== GameChannelStatus.Connecting)
      return;
    if (this.socket) return;
    clearTimeout(this.retryTimer);
    this.backoff.reset();
    this.open();
  }

  private send<E extends keyof GameClientEvents>(event: E, data: GameClientEvents[E]): boolean {
    if (this.socket?.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify({ event, data }));
    return true;
  }

  private emit<E extends keyof GameChannelEvents>(event: E, ...args: GameChannelEvents[E]): void {
    this.events.emit(event, ...args);
  }

  private setStatus(status: GameChannelStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.emit('status', status);
  }
}
