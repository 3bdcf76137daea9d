/**
 * Checks what the server sends to browsers against the protocol's server→client schemas. A message
 * that does not match is recorded here (and thrown where the sender can take it); the setup file
 * fails the test it happened in, so a field added, dropped or retyped without the contract is seen
 * even where no assertion looks at it.
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { GameServerSchemas, JackpotSignalSchemas, NotificationServerSchemas, WatchServerSchemas, WsPath } from '@reel/protocol';

const CHANNELS: Record<string, Record<string, TSchema>> = {
  [WsPath.game]: GameServerSchemas,
  [WsPath.notifications]: NotificationServerSchemas,
  [WsPath.jackpot]: JackpotSignalSchemas,
  [WsPath.watch]: WatchServerSchemas,
};

/** Every mismatch seen since the last test ended. */
export const protocolDrift: string[] = [];

/** The problem with one sent message on a channel (`WsPath`), or null when it matches. */
export function driftOf(channel: string, event: string, data: unknown): string | null {
  const schemas = CHANNELS[channel];
  if (!schemas) return null;
  const schema = Object.hasOwn(schemas, event) ? schemas[event] : undefined;
  if (!schema) return `${channel}: "${event}" is not a server message of this channel`;
  if (Value.Check(schema, data)) return null;
  const first = Value.Errors(schema, data)[0];
  const where = first ? `${first.instancePath || '/'} ${first.message}` : 'does not match';
  return `${channel}: "${event}" ${where}: ${JSON.stringify(data).slice(0, 300)}`;
}

/** Records a mismatch and answers it, for senders that should also fail loudly. */
export function checkSent(channel: string, event: string, data: unknown): string | null {
  const problem = driftOf(channel, event, data);
  if (problem) protocolDrift.push(problem);
  return problem;
}
