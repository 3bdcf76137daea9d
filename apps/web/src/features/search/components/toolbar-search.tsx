import { useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { IconButton } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import type { NavigationItem } from '@/config/navigation';
import { useAuthStore } from '@/lib/auth-store';
import { toast } from '@/lib/toast-store';
import { saveShortcuts } from '@/lib/user-settings';
import { searchEntries, toggleShortcut } from '../search-rules';

const NO_SHORTCUTS: string[] = [];

function useShortcutToggle() {
  const { t } = useTranslation();
  const shortcuts = useAuthStore((state) => state.user?.shortcuts) ?? NO_SHORTCUTS;
  const toggle = (id: string) => {
    saveShortcuts(toggleShortcut(shortcuts, id)).catch(() => toast.error(t('common.unknownError')));
  };
  return { shortcuts, toggle };
}

/** Search over the navigation by title; a star on each suggestion adds or removes a shortcut. */
export function ToolbarSearch({ items }: { items: readonly NavigationItem[] }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [activeIndex, setActiveIndex] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const { shortcuts, toggle } = useShortcutToggle();
  const entries = useMemo(
    () => items.map((item) => ({ id: item.id, title: t(item.title ?? ''), url: item.url ?? '' })),
    [items, t],
  );
  const results = searchEntries(entries, query, i18n.language);
  const close = () => {
    setOpen(false);
    setQuery('');
    setActiveIndex(-1);
  };

  if (!open) {
    return (
      <IconButton
        icon="search"
        label={t('toolbar.search')}
        onClick={() => {
          setOpen(true);
          setTimeout(() => inputRef.current?.focus(), 0);
        }}
      />
    );
  }

  return (
    <div className="search" onKeyDown={(event) => event.key === 'Escape' && close()}>
      <Icon name="search" size={20} />
      <input
        ref={inputRef}
        className="search__input"
        role="combobox"
        aria-expanded={query.trim().length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-label={t('toolbar.search')}
        aria-activedescendant={activeIndex >= 0 ? `${listId}-${activeIndex}` : undefined}
        placeholder={t('toolbar.searchPlaceholder')}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActiveIndex(-1);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setActiveIndex((index) => Math.min(index + 1, results.length - 1));
          else if (event.key === 'ArrowUp') setActiveIndex((index) => Math.max(index - 1, 0));
          else if (event.key === 'Enter' && results[activeIndex]) {
            navigate(results[activeIndex].url);
            close();
          }
        }}
      />
      <IconButton icon="close" label={t('common.close')} onClick={close} size={20} />
      {query.trim() ? (
        <ul className="search__results" id={listId} role="listbox" aria-label={t('toolbar.search')}>
          {results.length === 0 ? (
            <li className="search__empty" role="option" aria-selected="false" aria-disabled="true">
              {t('toolbar.noResults')}
            </li>
          ) : (
            results.map((result, index) => {
              const starred = shortcuts.includes(result.id);
              return (
                <li
                  key={result.id}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === activeIndex}
                  className="search__result"
                >
                  <Link to={result.url} onClick={close} tabIndex={-1}>
                    {result.title}
                  </Link>
                  <button
                    type="button"
                    className="icon-btn"
                    aria-pressed={starred}
                    aria-label={t(starred ? 'toolbar.removeShortcut' : 'toolbar.addShortcut', { title: result.title })}
                    onClick={() => toggle(result.id)}
                  >
                    <Icon name={starred ? 'star' : 'starBorder'} size={20} />
                  </button>
                </li>
              );
            })
          )}
        </ul>
      ) : null}
    </div>
  );
}

/** The starred entries as quick links in the toolbar. */
export function Shortcuts({ items }: { items: readonly NavigationItem[] }) {
  const { t } = useTranslation();
  const { shortcuts } = useShortcutToggle();
  const starred = shortcuts.map((id) => items.find((item) => item.id === id)).filter((item): item is NavigationItem => Boolean(item));
  if (starred.length === 0) return null;
  return (
    <nav className="shortcuts" aria-label={t('toolbar.shortcuts')}>
      {starred.map((item) => (
        <Link key={item.id} to={item.url ?? '/'} className="icon-btn" title={t(item.title ?? '')} aria-label={t(item.title ?? '')}>
          <Icon name={item.icon ?? 'star'} size={22} />
        </Link>
      ))}
    </nav>
  );
}
