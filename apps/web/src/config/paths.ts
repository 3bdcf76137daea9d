/** Every route of spec section 2, in one typed place. */
export const paths = {
  root: '/',
  lobby: '/lobby',
  lobbyGroup: (id: number | string, name: string) => `/lobby/${id}/${encodeURIComponent(slug(name))}`,
  game: (id: number | string, name: string) => `/game/${id}/${encodeURIComponent(slug(name))}`,
  /** A spectator's view of a machine someone plays (issue 29). */
  watch: (id: number | string, name: string) => `/watch/${id}/${encodeURIComponent(slug(name))}`,
  profile: '/profile',
  protection: '/profile/protection',
  slotSessions: '/slot-sessions',
  transactions: '/transactions',
  login: '/login',
  logout: '/logout',
  callback: '/callback',
  adminRoleExample: '/auth/admin-role-example',
  staffRoleExample: '/auth/staff-role-example',
  guestRoleExample: '/auth/guest-role-example',
  documentation: '/documentation',
  paytables: '/paytables',
  error404: '/pages/errors/error-404',
  error500: '/pages/errors/error-500',
} as const;

function slug(name: string): string {
  return (
    name
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '') || 'item'
  );
}

/**
 * Template demo pages the spec lists without describing; each shows what its name promises, built
 * from the product's own parts (features/pages, docs/spec-decisions.md).
 */
export const templateDemoPaths = [
  '/pages/auth/login',
  '/pages/auth/login-2',
  '/pages/auth/login-3',
  '/pages/auth/register',
  '/pages/auth/register-2',
  '/pages/auth/register-3',
  '/pages/auth/forgot-password',
  '/pages/auth/forgot-password-2',
  '/pages/auth/reset-password',
  '/pages/auth/reset-password-2',
  '/pages/auth/lock',
  '/pages/auth/mail-confirm',
  '/pages/coming-soon',
  '/pages/profile',
  '/pages/search/classic',
  '/pages/search/modern',
  '/ui/page-layouts/carded/full-width',
  '/ui/page-layouts/carded/full-width-tabbed',
  '/ui/page-layouts/carded/left-sidebar',
  '/ui/page-layouts/carded/left-sidebar-tabbed',
  '/ui/page-layouts/carded/right-sidebar',
  '/ui/page-layouts/carded/right-sidebar-tabbed',
  '/ui/page-layouts/simple/full-width',
  '/ui/page-layouts/simple/left-sidebar',
  '/ui/page-layouts/simple/right-sidebar',
  '/ui/page-layouts/simple/tabbed',
  '/ui/page-layouts/blank',
  '/ui/icons',
  '/ui/typography',
  '/ui/helper-classes',
] as const;
