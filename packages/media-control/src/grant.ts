/**
 * Viewer grants: `base64url(JSON claims).base64url(HMAC-SHA256(secret, first part))`. The API
 * server signs one for the player who holds a machine's session (or, with `role: 'watch'`, for a
 * spectator: modules/spectators); the media process checks it with the same secret (passed by env).
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { GrantClaims } from '@reel/protocol';

export const DEFAULT_GRANT_TTL_MS = 60_000;

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('base64url');

export function signGrant(
  secret: string,
  claims: { playerId: number; machineId: number; ttlMs?: number; nowMs?: number; role?: 'watch' },
): { token: string; claims: GrantClaims } {
  const full: GrantClaims = {
    v: 1,
    playerId: claims.playerId,
    machineId: claims.machineId,
    exp: (claims.nowMs ?? Date.now()) + (claims.ttlMs ?? DEFAULT_GRANT_TTL_MS),
    jti: randomUUID(),
    ...(claims.role ? { role: claims.role } : {}),
  };
  const body = Buffer.from(JSON.stringify(full)).toString('base64url');
  return { token: `${body}.${sign(secret, body)}`, claims: full };
}

export type GrantError = 'malformed' | 'bad_signature' | 'expired' | 'wrong_machine';

export function verifyGrant(
  secret: string,
  token: string,
  expect: { machineId: number; nowMs?: number },
): { ok: true; claims: GrantClaims } | { ok: false; error: GrantError } {
  if (typeof token !== 'string' || token.length > 2000) return { ok: false, error: 'malformed' };
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined) return { ok: false, error: 'malformed' };
  const want = Buffer.from(sign(secret, body));
  const got = Buffer.from(mac);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return { ok: false, error: 'bad_signature' };
  let claims: GrantClaims;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as GrantClaims;
  } catch {
    return { ok: false, error: 'malformed' };
  }
  if (claims.v !== 1 || !Number.isInteger(claims.playerId) || !Number.isInteger(claims.machineId))
    return { ok: false, error: 'malformed' };
  if (claims.role !== undefined && claims.role !== 'watch') return { ok: false, error: 'malformed' };
  if (claims.exp < (expect.nowMs ?? Date.now())) return { ok: false, error: 'expired' };
  if (claims.machineId !== expect.machineId) return { ok: false, error: 'wrong_machine' };
  return { ok: true, claims };
}
