/**
 * The watch socket (`WsPath.watch`): a spectator's only channel. It hears `watching`, `play`,
 * `watchers` and `stream`, and may ask for a fresh video grant; it has no way to send a game
 * command (the server refuses any with 40307).
 */
import { WsPath, type StreamGrant, type WatchServerEvents, type WatchServerMessage } from '@reel/protocol/client';
import { backendSocketUrl } from '@/lib/api-client';
import { Emitter } from '@/lib/emitter';

type WatchEvents = { [E in keyof WatchServerEvents]: [WatchServerEvents[E]] } & { closed: [number] };

export class WatchChannel extends Emitter<WatchEvents> {
  private socket: WebSocket | null = null;
  private readonly grantWaiters: ((grant: StreamGrant) => void)[] = [];

  open(machineId: number, token: string): void {
    const socket = new WebSocket(`${backendSocketUrl(WsPath.watch, token)}&machineId=${machineId}`);
    this.socket = socket;
    socket.onmessage = (event) => {
      let message: WatchServerMessage;
      try {
        message = JSON.parse(String(event.data)) as WatchServerMessage;
      } catch {
        return;
      }
      if (message.event === 'stream') this.grantWaiters.splice(0).forEach((resolve) => resolve(message.data));
      this.emit(message.event, message.data as never);
    };
    socket.onclose = (event) => this.emit('closed', event.code);
  }

  /** A fresh spectator's grant (a video reconnect needs one: grants are short-lived). */
  requestStream(): Promise<StreamGrant> {
    return new Promise((resolve) => {
      this.grantWaiters.push(resolve);
      if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ event: 'stream', data: {} }));
    });
  }

  close(): void {
    this.socket?.close(1000);
    this.socket = null;
  }
}
