/**
 * Opaque keyset cursors for the history lists. A cursor names the last row a page showed, so the
 * next page starts right after it no matter how many rows were added in front meanwhile.
 * Each list has its own prefix so a cursor of one list is refused by the other.
 */
import { AppError } from '../../lib/errors.js';
import { Code } from '@reel/protocol';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Position of a slot session: its start in microseconds since the epoch (PostgreSQL precision) and id. */
interface SessionCursor {
  startUs: string;
  id: string;
}

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function decode(cursor: string): string {
  if (!BASE64URL.test(cursor)) throw badCursor();
  return Buffer.from(cursor, 'base64url').toString('utf8');
}

const badCursor = () => new AppError(Code.InvalidRequest, 400, {}, 'Invalid request: cursor is not valid');

export const encodeSessionCursor = (c: SessionCursor) => encode(`s:${c.startUs}:${c.id}`);

export function decodeSessionCursor(cursor: string): SessionCursor {
  const match = /^s:(-?\d{1,19}):(.+)$/.exec(decode(cursor));
  if (!match || !UUID.test(match[2]!)) throw badCursor();
  return { startUs: match[1]!, id: match[2]! };
}

export const encodeOperationCursor = (id: number) => encode(`t:${id}`);

export function decodeOperationCursor(cursor: string): number {
  const match = /^t:(\d{1,15})$/.exec(decode(cursor));
  if (!match) throw badCursor();
  const id = Number(match[1]);
  if (!Number.isSafeInteger(id) || id <= 0) throw badCursor();
  return id;
}
