import { describe, expect, it } from 'vitest';
import { filterNavigation, flattenNavigation, navigationConfig } from '@/config/navigation';
import { authRoles, hasLevel, hasPermission, redirectAfterDenied } from './auth-rules';

describe('hasPermission (spec section 6)', () => {
  it('grants routes without an auth list to everyone', () => {
    expect(hasPermission(undefined, [])).toBe(true);
    expect(hasPermission(null, ['user'])).toBe(true);
  });
  it('grants guest-only routes (empty list) only to users without roles', () => {
    expect(hasPermission(authRoles.onlyGuest, [])).toBe(true);
    expect(hasPermission(authRoles.onlyGuest, ['user'])).toBe(false);
  });
  it('grants when the roles intersect', () => {
    expect(hasPermission(authRoles.user, ['user'])).toBe(true);
    expect(hasPermission(authRoles.staff, ['user'])).toBe(false);
    expect(hasPermission(authRoles.staff, ['staff'])).toBe(true);
    expect(hasPermission(authRoles.staff, ['admin'])).toBe(true);
    expect(hasPermission(authRoles.admin, ['staff', 'user'])).toBe(false);
    expect(hasPermission(authRoles.admin, ['admin'])).toBe(true);
    expect(hasPermission(authRoles.user, [])).toBe(false);
  });
});

describe('redirectAfterDenied', () => {
  it('goes to the saved path, or / when none, and never back to /logout', () => {
    expect(redirectAfterDenied('/profile')).toBe('/profile');
    expect(redirectAfterDenied(null)).toBe('/');
    expect(redirectAfterDenied('/logout')).toBe('/');
  });
});

describe('navigation levels', () => {
  it('shows the menu (level 145) to a player and hides it from guests', () => {
    const player = filterNavigation(navigationConfig, ['user'], { type: 'player', permissions: [145] });
    expect(flattenNavigation(player).map((item) => item.url)).toEqual([
      '/lobby',
      '/profile',
      '/slot-sessions',
      '/transactions',
      '/documentation',
      '/logout',
    ]);
    expect(filterNavigation(navigationConfig, [], null)).toEqual([]);
  });
  it('hides level items from a user whose permissions lack the level', () => {
    expect(hasLevel([145], { type: 'operator', permissions: [1, 2] })).toBe(false);
    expect(hasLevel([145], { type: 'operator', permissions: [145] })).toBe(true);
    expect(hasLevel(undefined, null)).toBe(true);
  });
});
