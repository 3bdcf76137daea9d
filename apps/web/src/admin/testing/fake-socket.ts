import { vi } from 'vitest';

/** A WebSocket stand-in the test drives: `push` delivers a server message. */
export class FakeSocket {
  static instances: FakeSocket[] = [];
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  push(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  close(): void {
    this.closed = true;
  }
}

export function stubWebSocket(): typeof FakeSocket {
  FakeSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  return FakeSocket;
}
