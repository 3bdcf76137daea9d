/** A game connection that keeps what the server sent, for session tests. */
import { WsPath, type GameServerEvents } from '@reel/protocol';
import type { GameConnection } from '../src/modules/sessions/types.js';
import { checkSent } from './protocol-drift.js';

// Tests read whatever payload they expect; typing each event here would only repeat the protocol.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Sent = { event: keyof GameServerEvents; data: any };

export class FakeConnection implements GameConnection {
  sent: Sent[] = [];
  closedWith: number | null = null;
  send(event: keyof GameServerEvents, data: unknown) {
    checkSent(WsPath.game, event, data);
    this.sent.push({ event, data });
  }
  close(code: number) {
    this.closedWith = code;
  }
  last(event: keyof GameServerEvents) {
    return [...this.sent].reverse().find((m) => m.event === event)?.data;
  }
  all(event: keyof GameServerEvents) {
    return this.sent.filter((m) => m.event === event).map((m) => m.data);
  }
}
