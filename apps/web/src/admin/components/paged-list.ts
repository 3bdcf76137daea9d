import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminApi } from '../lib/admin-api';
import { PAGE_SIZE } from './pager';

type Filters = Record<string, string | undefined>;

/**
 * One server list (`limit`/`offset`, answering `items` and `total`) with its filters: new filters
 * start again at the first page; the page shown stays while the next one loads.
 */
export function usePagedList<Page, F extends Filters = Filters>(name: string, path: string, initial: F) {
  const [filters, setFilters] = useState<F>(initial);
  const [offset, setOffset] = useState(0);
  const query = useQuery({
    queryKey: ['admin', name, filters, offset],
    queryFn: () => adminApi.get<Page>(path, { ...filters, limit: PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
  });
  return {
    query,
    filters,
    offset,
    setOffset,
    filter(next: F) {
      setFilters(next);
      setOffset(0);
    },
  };
}
