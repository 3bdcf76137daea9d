import { IDEMPOTENCY_HEADER } from '@reel/protocol/client';
import { api, ApiError, apiRequest } from '@/lib/api-client';
import { operatorToken, signOutOperator } from './operator-session';

type Query = Record<string, string | number | undefined | null>;

/** `/admin/players/:id` with its parameters filled in. */
export function fillPath(template: string, params: Record<string, string | number>): string {
  return template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

/** A money correction's key; `randomUUID` exists only in secure contexts (HTTPS, localhost). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return crypto.randomUUID?.() ?? Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A 401 means the operator's token is gone (expired, revoked, account disabled): back to sign-in. */
async function guarded<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && error.httpStatus === 401) signOutOperator();
    throw error;
  }
}

/**
 * Every console call, with the operator's token (never the player's) and without the player app's
 * automatic logout on 401. The console writes nothing itself: each action is one of these calls.
 */
export const adminApi = {
  get: <T>(path: string, query?: Query) => guarded(api.get<T>(path, { query, token: operatorToken(), allowUnauthorized: true })),
  post: <T>(path: string, body?: unknown, idempotencyKey?: string) =>
    guarded(
      api.post<T>(path, body, {
        token: operatorToken(),
        allowUnauthorized: true,
        headers: idempotencyKey ? { [IDEMPOTENCY_HEADER]: idempotencyKey } : undefined,
      }),
    ),
  put: <T>(path: string, body: unknown) =>
    guarded(apiRequest<T>(path, { method: 'PUT', body, token: operatorToken(), allowUnauthorized: true })),
};
