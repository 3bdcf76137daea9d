import { NAVIGATION_LEVEL, Role } from '@reel/protocol/client';

/** Route and menu role lists of spec section 6; `onlyGuest` is the empty list. */
export const authRoles = {
  admin: [Role.Admin],
  staff: [Role.Admin, Role.Staff],
  user: [Role.Admin, Role.Staff, Role.User],
  onlyGuest: [] as string[],
} as const satisfies Record<string, readonly string[]>;

export type AuthList = readonly string[] | null | undefined;

/**
 * Access is granted when the route has no list, when the list is empty and the user has no roles
 * (a guest-only page seen by a guest), or when the user's roles intersect the list.
 */
export function hasPermission(auth: AuthList, userRoles: readonly string[] | null | undefined): boolean {
  if (auth === null || auth === undefined) return true;
  const roles = userRoles ?? [];
  if (auth.length === 0) return roles.length === 0;
  return auth.some((role) => roles.includes(role));
}

export interface LevelSubject {
  type?: string;
  permissions?: readonly number[];
}

/**
 * Menu items carrying levels need the user's permissions to include every required level; the
 * original check is not shown in the spec, so a player whose token grants the level sees the item.
 * Tokens without a permission list (older backends) get the player level by default.
 */
export function hasLevel(levels: readonly number[] | undefined, subject: LevelSubject | null): boolean {
  if (!levels || levels.length === 0) return true;
  if (!subject) return false;
  const permissions = subject.permissions && subject.permissions.length > 0 ? subject.permissions : [NAVIGATION_LEVEL];
  return levels.every((level) => permissions.includes(level) || (level === NAVIGATION_LEVEL && subject.type === 'player'));
}

/** After a failed check a signed-in user goes back to the saved path, never to /logout. */
export function redirectAfterDenied(savedPath: string | null | undefined): string {
  if (!savedPath || savedPath === '/logout' || savedPath.startsWith('/logout?') || savedPath === '/login') return '/';
  return savedPath;
}
