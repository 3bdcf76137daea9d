import type { TokenClaims } from '@reel/protocol/client';

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(segment.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Reads the claims without verifying: the server verifies; the client only needs the fields and expiry. */
export function decodeToken(token: string): TokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(base64UrlDecode(payload)) as TokenClaims;
    return typeof claims === 'object' && claims !== null ? claims : null;
  } catch {
    return null;
  }
}

export function isTokenExpired(claims: Pick<TokenClaims, 'exp'> | null, nowMs = Date.now()): boolean {
  if (!claims || typeof claims.exp !== 'number') return true;
  return claims.exp * 1000 <= nowMs;
}
