import type { JackpotPoolsResponse } from '@reel/protocol';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';

export function JackpotPools() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const query = useQuery({ queryKey: ['admin', 'jackpots'], queryFn: () => adminApi.get<JackpotPoolsResponse>(AdminPath.jackpots) });
  return (
    <section className="admin-card">
      <h2>{t('money.jackpots')}</h2>
      <QueryState query={query}>
        {(pools) => (
          <table className="admin-table">
            <thead>
              <tr>
                <th>{t('money.brand')}</th>
                <th>{t('money.level')}</th>
                <th>{t('money.seed')}</th>
                <th>{t('money.pool')}</th>
              </tr>
            </thead>
            <tbody>
              {pools.items.map((pool) => (
                <tr key={`${pool.brand_id}-${pool.level}`}>
                  <td>{pool.brand}</td>
                  <td>{pool.level}</td>
                  <td className="admin-num">{format.money(pool.seed)}</td>
                  <td className="admin-num">{format.money(pool.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </section>
  );
}
