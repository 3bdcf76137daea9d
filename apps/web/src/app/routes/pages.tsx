import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { INFO_PAGES } from '@/config/info-pages';
import { SearchDemoPage, TemplateDemoPage, type SearchEntry } from '@/features/pages';
import { searchEntries } from '@/features/search';
import { useNavigationItems } from '../layouts/use-navigation';

export {
  AdminRoleExamplePage as AdminRoleExampleRoute,
  DocumentationPage as DocumentationRoute,
  GuestRoleExamplePage as GuestRoleExampleRoute,
  NotFoundPage as NotFoundRoute,
  ServerErrorPage as ServerErrorRoute,
  StaffRoleExamplePage as StaffRoleExampleRoute,
} from '@/features/pages';

/** The search pages look through what the toolbar search does, plus the information pages. */
function SearchRoute({ variant }: { variant: 'classic' | 'modern' }) {
  const { t, i18n } = useTranslation();
  const { flat } = useNavigationItems();
  const entries = useMemo<SearchEntry[]>(
    () => [
      ...flat.map((item) => ({ id: item.id, title: t(item.title ?? ''), url: item.url ?? '', icon: item.icon ?? 'apps' })),
      ...INFO_PAGES.map((page) => ({ id: page.id, title: t(page.title), url: page.src(i18n.language), icon: 'info' as const, external: true })),
    ],
    [flat, t, i18n.language],
  );
  return <SearchDemoPage variant={variant} entries={entries} search={searchEntries} />;
}

export function TemplateDemoRoute() {
  const { pathname } = useLocation();
  if (pathname === '/pages/search/classic') return <SearchRoute variant="classic" />;
  if (pathname === '/pages/search/modern') return <SearchRoute variant="modern" />;
  return <TemplateDemoPage />;
}
