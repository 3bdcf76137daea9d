import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon, type IconName } from '@/components/ui/icon';
import { TextField } from '@/components/ui/text-field';
import { usePageTexts } from '../page-texts';

export interface SearchEntry {
  id: string;
  title: string;
  url: string;
  icon: IconName;
  /** A page outside the app (the information pages): opens in a new tab. */
  external?: boolean;
}

interface SearchDemoPageProps {
  variant: 'classic' | 'modern';
  entries: readonly SearchEntry[];
  /** The toolbar's own rule (trimmed, case-insensitive title match), from the search feature. */
  search: (entries: readonly SearchEntry[], query: string, locale?: string) => SearchEntry[];
}

function EntryLink({ entry, children, className }: { entry: SearchEntry; children: ReactNode; className?: string }) {
  const { t } = usePageTexts();
  if (entry.external) {
    return (
      <a className={className} href={entry.url} target="_blank" rel="noreferrer">
        {children}
        <span className="visually-hidden"> {t('search.opensInNewTab')}</span>
      </a>
    );
  }
  return (
    <Link className={className} to={entry.url}>
      {children}
    </Link>
  );
}

/**
 * `/pages/search/classic` and `/modern`: the toolbar's search as a page, over the menu and the
 * information pages. Classic lists the results with their address; modern shows them as tiles.
 */
export function SearchDemoPage({ variant, entries, search }: SearchDemoPageProps) {
  const { t } = usePageTexts();
  const { i18n } = useTranslation();
  const [query, setQuery] = useState('');
  const results = search(entries, query, i18n.language);
  return (
    <div className={`page search-page search-page--${variant}`}>
      <header className="page__header">
        <h1>{t(`search.${variant}`)}</h1>
      </header>
      <TextField
        label={t('search.label')}
        type="search"
        value={query}
        hint={t('search.hint')}
        onChange={(event) => setQuery(event.target.value)}
        adornment={<Icon name="search" size={20} />}
      />
      {query.trim() ? (
        <p className="muted" role="status">
          {results.length ? t('search.count', { count: results.length }) : t('search.empty')}
        </p>
      ) : null}
      {variant === 'classic' ? (
        <ol className="search-page__list">
          {results.map((entry) => (
            <li key={entry.id}>
              <EntryLink entry={entry}>{entry.title}</EntryLink>
              <p className="muted small">{entry.url}</p>
            </li>
          ))}
        </ol>
      ) : (
        <ul className="search-page__tiles">
          {results.map((entry) => (
            <li key={entry.id}>
              <EntryLink entry={entry} className="card search-page__tile">
                <Icon name={entry.icon} size={28} className="text-accent" />
                <span>{entry.title}</span>
              </EntryLink>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
