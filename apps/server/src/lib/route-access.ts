/**
 * Who may call a route, declared on the route itself: `config: { roles }`. The authorization plugin
 * (plugins/auth.ts) enforces it for every route, and the server refuses to start while any route
 * declares nothing, so no route can be forgotten.
 *
 *   app.get('/api/x', { config: { roles: PLAYERS }, ... })   a signed-in account (bearer token)
 *   app.get('/api/admin/y', { config: { roles: STAFF } })      an operator (staff or admin); a player token gets 403 40304
 *   app.get('/api/admin/z', { config: { roles: ADMIN_ONLY } }) an admin operator; staff get 403 40304
 *   app.get('/check', { config: { roles: PUBLIC }, ... })    no player token (its own check, or none)
 */
import type { FastifyInstance } from 'fastify';
import { OperatorRole, Role } from '@reel/protocol';

/** The route takes no player token: it is open, or checks another credential itself (a machine key, a video grant). */
export const PUBLIC = 'public' as const;
/** Every signed-in account: the server gives each one the `user` role (tokens.ts), staff and admins too. */
export const PLAYERS: readonly Role[] = [Role.User];

/**
 * Operator routes (`/api/admin/`): an operator token (modules/operators) whose role, read from the
 * database on every request, is one of these. Operators are not players: a player token is a 403.
 */
export interface OperatorRoles {
  readonly operators: readonly OperatorRole[];
}
/** The house's people: every operator, staff or admin (spec section 6). */
export const STAFF: OperatorRoles = { operators: [OperatorRole.Staff, OperatorRole.Admin] };
/** Money corrections and operator accounts: admins only (docs/spec-decisions.md). */
export const ADMIN_ONLY: OperatorRoles = { operators: [OperatorRole.Admin] };

export const isOperatorRoles = (roles: RouteRoles | undefined): roles is OperatorRoles =>
  typeof roles === 'object' && 'operators' in roles;

/** The roles a route allows (any one of them suffices), or PUBLIC. */
export type RouteRoles = typeof PUBLIC | readonly Role[] | OperatorRoles;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every route: who may call it. */
    roles?: RouteRoles;
  }
}

/** Routes a library registers in `context` (the docs UI, the web app's files) take no options of ours: they get `roles` here. */
export function declareLibraryRoutes(context: FastifyInstance, roles: RouteRoles): void {
  context.addHook('onRoute', (route) => void (route.config = { ...route.config, roles }));
}
