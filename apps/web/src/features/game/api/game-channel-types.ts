/** What the game channel emits and what it is made with. */
import type { GameServerEvents, StreamGrant } from '@reel/protocol/client';
import type { GameChannelStatus } from './channel-status';
import type { Environment, SocketLike } from './channel-environment';

export type JoinedData = GameServerEvents['joined'];
export type GameError = GameServerEvents['error'];

export type GameChannelEvents = {
  status: [GameChannelStatus];
  joined: [JoinedData];
  machine: [GameServerEvents['machine']];
  cycle: [GameServerEvents['cycle']];
  session: [GameServerEvents['session']];
  info: [GameServerEvents['info']];
  cashedIn: [GameServerEvents['cashedIn']];
  cashedOut: [GameServerEvents['cashedOut']];
  moneyTransfer: [GameServerEvents['moneyTransfer']];
  stream: [StreamGrant];
  closed: [GameServerEvents['closed']];
  /** A play error the player should see (insufficient balance, cash-in limit, machine silent). */
  error: [GameError];
  /** The join was refused; the channel will not retry. */
  fatal: [GameError];
  /** Back online after `outageMs`: call `resume()` to join again. */
  interrupted: [number];
};

export interface GameChannelOptions {
  machineId: number;
  getToken: () => string | null;
  url?: (token: string) => string;
  createSocket?: (url: string) => SocketLike;
  environment?: Environment;
  random?: () => number;
  now?: () => number;
  newId?: () => string;
}
