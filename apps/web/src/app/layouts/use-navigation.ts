import { useMemo } from 'react';
import { filterNavigation, flattenNavigation, navigationConfig } from '@/config/navigation';
import { useAuthStore } from '@/lib/auth-store';

const NO_ROLES: string[] = [];

export function useNavigationItems() {
  const roles = useAuthStore((state) => state.user?.roles) ?? NO_ROLES;
  const type = useAuthStore((state) => state.user?.type);
  const permissions = useAuthStore((state) => state.user?.permissions);
  return useMemo(() => {
    const tree = filterNavigation(navigationConfig, roles, roles.length ? { type, permissions } : null);
    return { tree, flat: flattenNavigation(tree) };
  }, [roles, type, permissions]);
}
