import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { Spinner } from '@/components/ui/spinner';
import { messageForError } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import { downloadHistory } from '../api/download-history';
import { fetchHistoryPage } from '../api/get-history';
import type { HistoryKind, RowOf } from '../api/history-kinds';

const PAGE_SIZES = [10, 25, 50, 100] as const;
const SEARCH_DEBOUNCE_MS = 300;

export interface Column<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
}

interface HistoryTableProps<K extends HistoryKind> {
  kind: K;
  title: string;
  columns: Column<RowOf<K>>[];
}

export function HistoryTable<K extends HistoryKind>({ kind, title, columns }: HistoryTableProps<K>) {
  const { t } = useTranslation();
  const searchId = useId();
  const sizeId = useId();
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [limit, setLimit] = useState<number>(PAGE_SIZES[0]);
  const [rows, setRows] = useState<RowOf<K>[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [phase, setPhase] = useState<'loading' | 'ready' | 'error' | 'more'>('loading');
  const [error, setError] = useState<unknown>(null);
  const [downloading, setDownloading] = useState(false);
  const request = useRef(0);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchInput.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput]);

  useEffect(() => {
    const id = ++request.current;
    const controller = new AbortController();
    setPhase('loading');
    fetchHistoryPage(kind, { search, limit, signal: controller.signal }).then(
      (page) => {
        if (id !== request.current) return;
        setRows(page.items);
        setCursor(page.next_cursor);
        setPhase('ready');
      },
      (failure: unknown) => {
        if (id !== request.current || controller.signal.aborted) return;
        setError(failure);
        setPhase('error');
      },
    );
    return () => controller.abort();
  }, [kind, search, limit]);

  const loadMore = async () => {
    if (!cursor) return;
    const id = request.current;
    setPhase('more');
    try {
      const page = await fetchHistoryPage(kind, { search, limit, cursor });
      if (id !== request.current) return;
      setRows((current) => [...current, ...page.items]);
      setCursor(page.next_cursor);
      setPhase('ready');
    } catch (failure) {
      toast.error(messageForError(failure));
      setPhase('ready');
    }
  };

  const download = async () => {
    setDownloading(true);
    try {
      await downloadHistory(kind, search);
    } catch (failure) {
      toast.error(messageForError(failure));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="page history">
      <header className="page__header">
        <h1>{title}</h1>
      </header>
      <div className="history__toolbar">
        <div className="history__search">
          <label htmlFor={searchId} className="visually-hidden">
            {t('history.search')}
          </label>
          <Icon name="search" size={20} />
          <input
            id={searchId}
            type="search"
            className="field__input"
            placeholder={t('history.searchPlaceholder')}
            value={searchInput}
            onChange={(event) => setSearchInput(event.target.value)}
          />
        </div>
        <div className="select-field select-field--inline">
          <label htmlFor={sizeId}>{t('history.itemsPerPage')}</label>
          <select id={sizeId} value={limit} onChange={(event) => setLimit(Number(event.target.value))}>
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <Button variant="secondary" icon="download" busy={downloading} onClick={download}>
          {t('history.download')}
        </Button>
      </div>
      {phase === 'error' ? (
        <div className="card" role="alert">
          <p>{t('history.loadError')}</p>
          <p className="muted small">{messageForError(error)}</p>
        </div>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label={title}>
          <table className="table" aria-busy={phase === 'loading'}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.id} scope="col" className={column.numeric ? 'num' : undefined}>
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  {columns.map((column) => (
                    <td
                      key={column.id}
                      className={column.numeric ? 'num' : undefined}
                      data-label={column.header}
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {phase === 'loading' ? <Spinner label={t('common.loading')} /> : null}
          {phase !== 'loading' && rows.length === 0 ? (
            <p className="table-empty">{t('history.empty')}</p>
          ) : null}
        </div>
      )}
      <div className="history__footer">
        <p className="muted small" role="status">
          {t('history.shown', { count: rows.length })}
        </p>
        {cursor ? (
          <Button variant="secondary" busy={phase === 'more'} onClick={loadMore}>
            {t('history.loadMore')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
