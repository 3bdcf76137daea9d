import type { LedgerTransferPage } from '@reel/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';
import { PAGE_SIZE, Pager } from '../components/pager';

export function LedgerTransfers() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const [offset, setOffset] = useState(0);
  const query = useQuery({
    queryKey: ['admin', 'ledger-transfers', offset],
    queryFn: () => adminApi.get<LedgerTransferPage>(AdminPath.ledgerTransfers, { limit: PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="admin-card">
      <h2>{t('money.transfers')}</h2>
      <QueryState query={query}>
        {(page) => (
          <>
            <table className="admin-table">
              <thead>
                <tr>
                  <th>#</th>
                  <th>{t('money.at')}</th>
                  <th>{t('money.kind')}</th>
                  <th>{t('money.amount')}</th>
                  <th>{t('money.entries')}</th>
                  <th>{t('money.key')}</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((transfer) => (
                  <tr key={transfer.id}>
                    <td>{transfer.id}</td>
                    <td>{format.date(transfer.at)}</td>
                    <td>{transfer.tag ? `${transfer.kind} (${transfer.tag})` : transfer.kind}</td>
                    <td className="admin-num">{format.money(transfer.amount)}</td>
                    <td>{transfer.entries.map((entry) => `#${entry.account_id} ${format.money(entry.amount)}`).join(', ')}</td>
                    <td className="admin-muted">{transfer.idempotency_key ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager offset={offset} total={page.total} onOffset={setOffset} />
          </>
        )}
      </QueryState>
    </section>
  );
}
