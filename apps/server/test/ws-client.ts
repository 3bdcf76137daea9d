/** A WebSocket client for tests: opens, collects every message, waits for one event or the close. */
import WebSocket from 'ws';
import { checkSent } from './protocol-drift.js';

interface Message {
  event: string;
  data: Record<string, unknown>;
  seq?: number;
}

/** An upgrade the server answered with plain HTTP instead of a socket. */
export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`upgrade refused with HTTP ${status}`);
  }
}

export class TestSocket {
  readonly messages: Message[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  private constructor(
    readonly socket: WebSocket,
    private readonly channel: string,
  ) {
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as Message;
      checkSent(this.channel, message.event, message.data);
      this.messages.push(message);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves once open; rejects with UpgradeRefused when the server answered HTTP instead. */
  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, options);
      const client = new TestSocket(socket, new URL(url).pathname);
      socket.on('open', () => resolve(client));
      socket.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => reject(new UpgradeRefused(response.statusCode ?? 0, body)));
        response.on('error', () => reject(new UpgradeRefused(response.statusCode ?? 0, body)));
      });
      socket.on('error', (error) => reject(error));
    });
  }

  send(message: unknown) {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message of `event` received after `after` messages (default: any so far). */
  async next(event: string, timeoutMs = 5_000, after = 0): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(after).find((m) => m.event === event);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no "${event}" within ${timeoutMs} ms; got ${JSON.stringify(this.messages.map((m) => m.event))}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends `message` and waits for the next `event` it causes. */
  async request(message: unknown, event: string, timeoutMs = 5_000): Promise<Message> {
    const after = this.messages.length;
    this.send(message);
    return this.next(event, timeoutMs, after);
  }

  close() {
    this.socket.close();
    return this.closed;
  }
}
