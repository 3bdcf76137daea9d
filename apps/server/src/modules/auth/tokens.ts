/**
 * Access tokens: HS256 JWTs whose claims carry the user fields the web app reads (spec section 3).
 * Each token's id is stored, so logout or a ban revokes it at once on HTTP and on open sockets.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { Role, type TokenClaims } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import { errors } from '../../lib/errors.js';

export interface PlayerIdentity {
  id: number;
  username: string;
  email: string;
  name: string;
  lastname: string;
  group_name: string;
  permissions: number[];
  user_type: string;
  roles: string[];
  /** The operator-set avatar (spec "photoURL"); null: the web app shows the name's initial. */
  photo_url: string | null;
}

export interface TokenService {
  /** `siteId`: the sign-in's site_id (spec section 7), kept on the token's row. */
  issue(player: PlayerIdentity, ip: string, siteId?: number): Promise<{ token: string; claims: TokenClaims }>;
  /** The site_id a token was issued for (0 when unknown). */
  siteOf(jti: string): Promise<number>;
  /**
   * Verifies signature, expiry and revocation, all as a 401: code 10 when a well-formed HS256 token
   * carries a signature this server's key does not verify (forged, tampered, or another server's
   * key), checked before expiry; 40103 when a genuine token expired; 40102 for anything else
   * (missing, not a JWT, another algorithm, revoked, unknown, banned player).
   */
  verify(token: string): Promise<TokenClaims>;
  /** Revokes the token and the tokens it replaced (a logout ends the whole browser session). */
  revoke(jti: string): Promise<void>;
  /** Lets a swapped token live at most `graceS` more seconds (other tabs still hold it). */
  retire(jti: string, graceS: number, replacedBy: string): Promise<void>;
  revokeAll(playerId: number): Promise<string[]>;
}

/** Every signed-in account is a user (spec section 6), whatever else it is. */
const withUserRole = (roles: string[]) => (roles.includes(Role.User) ? roles : [...roles, Role.User]);

/**
 * `refusal`: player protection's answer for a player who may not sign in now (a break), thrown by
 * every token check before the token's own state, so every channel says until when.
 */
export function createTokenService(
  db: Queryable,
  secret: Uint8Array,
  ttlS: number,
  refusal: (playerId: number) => Promise<Error | null> = async () => null,
): TokenService {
  return {
    async issue(player, ip, siteId = 0) {
      const jti = randomUUID();
      const iat = Math.floor(Date.now() / 1000);
      const exp = iat + ttlS;
      const roles = withUserRole(player.roles);
      const claims: TokenClaims = {
        sub: String(player.id),
        id: player.id,
        jti,
        group: player.group_name,
        permissions: player.permissions,
        type: player.user_type,
        name: player.name,
        lastname: player.lastname,
        email: player.email,
        username: player.username,
        ...(player.photo_url ? { photoURL: player.photo_url } : {}),
        role: roles,
        iat,
        exp,
      };
      await db.query(
        'INSERT INTO auth_tokens (jti, player_id, expires_at, ip, site_id) VALUES ($1, $2, to_timestamp($3), $4, $5)',
        [jti, player.id, exp, ip, siteId],
      );
      const token = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(secret);
      return { token, claims };
    },

    async verify(token) {
      let claims: TokenClaims;
      try {
        // `typ: JWT`: an operator token (modules/operators, `operator+jwt`) is not a player's.
        claims = (await jwtVerify(token, secret, { algorithms: ['HS256'], typ: 'JWT' })).payload as unknown as TokenClaims;
      } catch (error) {
        if (error instanceof joseErrors.JWSSignatureVerificationFailed) throw errors.signature();
        if (error instanceof joseErrors.JWTExpired) throw errors.expired();
        throw errors.unauthorized();
      }
      const refused = await refusal(Number(claims.id));
      if (refused) throw refused;
      const live = await db.query<{ roles: string[] }>(
        `SELECT p.roles FROM auth_tokens t JOIN players p ON p.id = t.player_id
          WHERE t.jti = $1 AND t.revoked_at IS NULL AND t.expires_at > now() AND NOT p.banned`,
        [claims.jti],
      );
      if (live.rowCount === 0) throw errors.unauthorized();
      // The roles the player has now, not when the token was issued: taking a role away takes effect at once.
      return { ...claims, role: withUserRole(live.rows[0]!.roles) };
    },

    async siteOf(jti) {
      const { rows } = await db.query<{ site_id: number }>('SELECT site_id FROM auth_tokens WHERE jti = $1', [jti]);
      return rows[0]?.site_id ?? 0;
    },

    async revoke(jti) {
      await db.query(
        `WITH RECURSIVE chain AS (
           SELECT $1::uuid AS jti
           UNION SELECT t.jti FROM auth_tokens t JOIN chain c ON t.replaced_by = c.jti
         )
         UPDATE auth_tokens SET revoked_at = now() WHERE jti IN (SELECT jti FROM chain) AND revoked_at IS NULL`,
        [jti],
      );
    },

    async retire(jti, graceS, replacedBy) {
      await db.query(
        'UPDATE auth_tokens SET expires_at = least(expires_at, now() + make_interval(secs => $2)), replaced_by = $3 WHERE jti = $1',
        [jti, graceS, replacedBy],
      );
    },

    async revokeAll(playerId) {
      const result = await db.query<{ jti: string }>(
        'UPDATE auth_tokens SET revoked_at = now() WHERE player_id = $1 AND revoked_at IS NULL RETURNING jti',
        [playerId],
      );
      return result.rows.map((r) => r.jti);
    },
  };
}
