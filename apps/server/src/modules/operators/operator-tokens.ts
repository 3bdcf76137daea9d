/**
 * Operator tokens: HS256 JWTs like the players', told apart by their header (`typ: operator+jwt`,
 * which the player token check refuses) and stored in their own table. The role is read from the
 * database on every check, so a demoted or disabled operator loses access at once.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify, errors as joseErrors } from 'jose';
import type { OperatorClaims, OperatorRole } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import { errors } from '../../lib/errors.js';

const OPERATOR_TOKEN_TYPE = 'operator+jwt';

export interface OperatorTokenService {
  issue(operator: { id: number; username: string; role: OperatorRole }, ip: string): Promise<string>;
  /** Signature, expiry, revocation and the operator's status; the role as the database holds it now. 401s otherwise. */
  verify(token: string): Promise<OperatorClaims>;
  revoke(jti: string): Promise<void>;
  revokeAll(operatorId: number): Promise<void>;
}

/** True when `token` is shaped as an operator token (not yet verified). */
export function looksLikeOperatorToken(token: string): boolean {
  try {
    return decodeProtectedHeader(token).typ === OPERATOR_TOKEN_TYPE;
  } catch {
    return false;
  }
}

export function createOperatorTokenService(db: Queryable, secret: Uint8Array, ttlS: number): OperatorTokenService {
  return {
    async issue(operator, ip) {
      const jti = randomUUID();
      const iat = Math.floor(Date.now() / 1000);
      const exp = iat + ttlS;
      const claims: OperatorClaims = { sub: String(operator.id), id: operator.id, jti, username: operator.username, role: operator.role, iat, exp };
      await db.query('INSERT INTO operator_tokens (jti, operator_id, expires_at, ip) VALUES ($1, $2, to_timestamp($3), $4)', [jti, operator.id, exp, ip]);
      return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256', typ: OPERATOR_TOKEN_TYPE }).sign(secret);
    },

    async verify(token) {
      let claims: OperatorClaims;
      try {
        claims = (await jwtVerify(token, secret, { algorithms: ['HS256'], typ: OPERATOR_TOKEN_TYPE })).payload as unknown as OperatorClaims;
      } catch (error) {
        if (error instanceof joseErrors.JWSSignatureVerificationFailed) throw errors.signature();
        if (error instanceof joseErrors.JWTExpired) throw errors.expired();
        throw errors.unauthorized();
      }
      const live = await db.query<{ role: OperatorRole; username: string }>(
        `SELECT o.role, o.username FROM operator_tokens t JOIN operators o ON o.id = t.operator_id
          WHERE t.jti = $1 AND t.revoked_at IS NULL AND t.expires_at > now() AND o.status = 'active'`,
        [claims.jti],
      );
      if (live.rowCount === 0) throw errors.unauthorized();
      return { ...claims, role: live.rows[0]!.role, username: live.rows[0]!.username };
    },

    async revoke(jti) {
      await db.query('UPDATE operator_tokens SET revoked_at = now() WHERE jti = $1 AND revoked_at IS NULL', [jti]);
    },

    async revokeAll(operatorId) {
      await db.query('UPDATE operator_tokens SET revoked_at = now() WHERE operator_id = $1 AND revoked_at IS NULL', [operatorId]);
    },
  };
}
