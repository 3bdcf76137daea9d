import { useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener('change', notify);
      return () => list?.removeEventListener('change', notify);
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}

/** Breakpoints of the shell: phones, the persistent-navbar desktop. */
export const MEDIA = {
  small: '(max-width: 599.98px)',
  desktop: '(min-width: 1200px)',
  portrait: '(orientation: portrait)',
} as const;
