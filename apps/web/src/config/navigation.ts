import { NAVIGATION_LEVEL } from '@reel/protocol/client';
import type { IconName } from '@/components/ui/icon';
import { authRoles, hasLevel, hasPermission, type LevelSubject } from '@/lib/auth-rules';
import { paths } from './paths';

type NavigationType = 'group' | 'collapse' | 'item' | 'link' | 'divider';

export interface NavigationItem {
  id: string;
  type: NavigationType;
  /** i18n key of the title. */
  title?: string;
  icon?: IconName;
  url?: string;
  exact?: boolean;
  /** For links: where to open; default a new tab. */
  target?: '_blank' | '_self';
  badge?: { title: string; bg: string; fg: string };
  children?: NavigationItem[];
  auth?: readonly string[];
  levels?: readonly number[];
}

/** The player's menu; every entry needs level 145 (spec section 2). */
export const navigationConfig: NavigationItem[] = [
  {
    id: 'applications',
    type: 'group',
    title: 'nav.applications',
    children: [
      {
        id: 'lobby',
        type: 'item',
        title: 'nav.lobby',
        icon: 'home',
        url: paths.lobby,
        auth: authRoles.user,
        levels: [NAVIGATION_LEVEL],
      },
      {
        id: 'account',
        type: 'collapse',
        title: 'nav.profile',
        icon: 'person',
        auth: authRoles.user,
        children: [
          {
            id: 'profile',
            type: 'item',
            title: 'nav.profile',
            icon: 'person',
            url: paths.profile,
            auth: authRoles.user,
            levels: [NAVIGATION_LEVEL],
          },
          {
            id: 'slot-sessions',
            type: 'item',
            title: 'nav.slotSessions',
            icon: 'history',
            url: paths.slotSessions,
            auth: authRoles.user,
            levels: [NAVIGATION_LEVEL],
          },
          {
            id: 'transactions',
            type: 'item',
            title: 'nav.transactions',
            icon: 'receipt',
            url: paths.transactions,
            auth: authRoles.user,
            levels: [NAVIGATION_LEVEL],
          },
        ],
      },
      {
        id: 'documentation',
        type: 'link',
        title: 'nav.documentation',
        icon: 'book',
        url: paths.documentation,
        auth: authRoles.user,
        levels: [NAVIGATION_LEVEL],
      },
      { id: 'divider-1', type: 'divider' },
      {
        id: 'logout',
        type: 'item',
        title: 'nav.logout',
        icon: 'logout',
        url: paths.logout,
        auth: authRoles.user,
        levels: [NAVIGATION_LEVEL],
      },
    ],
  },
];

/** Items the user may see: auth lists and levels both apply; groups without visible children disappear. */
export function filterNavigation(
  items: readonly NavigationItem[],
  roles: readonly string[],
  subject: LevelSubject | null,
): NavigationItem[] {
  const result: NavigationItem[] = [];
  for (const item of items) {
    if (!hasPermission(item.auth, roles) || !hasLevel(item.levels, subject)) continue;
    if (item.children) {
      const children = filterNavigation(item.children, roles, subject);
      const visible = children.some((child) => child.type !== 'divider');
      if ((item.type === 'group' || item.type === 'collapse') && !visible) continue;
      result.push({ ...item, children });
    } else {
      result.push(item);
    }
  }
  return result;
}

/** Flat list of the navigable entries, for the toolbar search and shortcuts. */
export function flattenNavigation(items: readonly NavigationItem[]): NavigationItem[] {
  return items.flatMap((item) => [
    ...(item.type === 'item' || item.type === 'link' ? [item] : []),
    ...flattenNavigation(item.children ?? []),
  ]);
}

/** An item is active when the path is its url (or below it, unless exact). */
export function isUrlActive(url: string | undefined, pathname: string, exact = false): boolean {
  if (!url) return false;
  if (exact) return pathname === url;
  return pathname === url || pathname.startsWith(`${url}/`);
}

export function containsActive(item: NavigationItem, pathname: string): boolean {
  if (item.url && isUrlActive(item.url, pathname, item.exact)) return true;
  return (item.children ?? []).some((child) => containsActive(child, pathname));
}
