import type { JackpotPoolsResponse } from '@reel/protocol';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';
import { AdminCard, AdminTable, type AdminColumn } from '../components/admin-table';

type Pool = JackpotPoolsResponse['items'][number];

export function JackpotPools() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const query = useQuery({ queryKey: ['admin', 'jackpots'], queryFn: () => adminApi.get<JackpotPoolsResponse>(AdminPath.jackpots) });
  const columns: AdminColumn<Pool>[] = [
    { header: t('money.brand'), cell: (pool) => pool.brand },
    { header: t('money.level'), cell: (pool) => pool.level },
    { header: t('money.seed'), cell: (pool) => format.money(pool.seed), kind: 'num' },
    { header: t('money.pool'), cell: (pool) => format.money(pool.amount), kind: 'num' },
  ];
  return (
    <AdminCard title={t('money.jackpots')}>
      <QueryState query={query}>
        {(pools) => <AdminTable columns={columns} rows={pools.items} rowKey={(pool) => `${pool.brand_id}-${pool.level}`} />}
      </QueryState>
    </AdminCard>
  );
}
