/**
 * Who may call a route, declared on the route itself: `config: { roles }`. The authorization plugin
 * (plugins/auth.ts) enforces it for every route, and the server refuses to start while any route
 * declares nothing, so no route can be forgotten.
 *
 *   app.get('/api/x', { config: { roles: PLAYERS }, ... })   a signed-in account (bearer token)
 *   app.get('/api/y', { config: { roles: STAFF }, ... })     staff or admin; a player gets 403 40304
 *   app.get('/check', { config: { roles: PUBLIC }, ... })    no player token (its own check, or none)
 */
import type { FastifyInstance } from 'fastify';
import { Role } from '@reel/protocol';

/** The route takes no player token: it is open, or checks another credential itself (a machine key, a video grant). */
export const PUBLIC = 'public' as const;
/** Every signed-in account: the server gives each one the `user` role (tokens.ts), staff and admins too. */
export const PLAYERS: readonly Role[] = [Role.User];
/** The house's people: staff pages are for admin and staff (spec section 6). */
export const STAFF: readonly Role[] = [Role.Staff, Role.Admin];

/** The roles a route allows (any one of them suffices), or PUBLIC. */
export type RouteRoles = typeof PUBLIC | readonly Role[];

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
