import { describe, expect, it } from 'vitest';
import { signGrant, verifyGrant } from './grant.js';

const SECRET = 'test-secret-0123456789abcdef';

describe('grants', () => {
  it('verifies a fresh grant for its machine and player', () => {
    const { token } = signGrant(SECRET, { playerId: 7, machineId: 3 });
    const r = verifyGrant(SECRET, token, { machineId: 3 });
    expect(r.ok && r.claims.playerId).toBe(7);
  });
  it('refuses another machine, an expired grant, a wrong secret and tampering', () => {
    const now = Date.now();
    const { token } = signGrant(SECRET, { playerId: 7, machineId: 3, ttlMs: 1000, nowMs: now });
    expect(verifyGrant(SECRET, token, { machineId: 4, nowMs: now })).toEqual({
      ok: false,
      error: 'wrong_machine',
    });
    expect(verifyGrant(SECRET, token, { machineId: 3, nowMs: now + 1001 })).toEqual({
      ok: false,
      error: 'expired',
    });
    expect(verifyGrant('another-secret-0123456789', token, { machineId: 3, nowMs: now })).toEqual({
      ok: false,
      error: 'bad_signature',
    });
    const [body, mac] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), playerId: 8 }),
    ).toString('base64url');
    expect(verifyGrant(SECRET, `${forged}.${mac}`, { machineId: 3, nowMs: now }).ok).toBe(false);
    expect(verifyGrant(SECRET, 'garbage', { machineId: 3 })).toEqual({ ok: false, error: 'malformed' });
  });
});
