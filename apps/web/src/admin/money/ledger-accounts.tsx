import type { LedgerAccountPage } from '@reel/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../lib/admin-api';
import { AdminPath, LedgerAccountKind } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';
import { PAGE_SIZE, Pager } from '../components/pager';

/** The filter's choices: the contract's account kinds. */
const KINDS = LedgerAccountKind.anyOf.map((literal) => literal.const);

export function LedgerAccounts() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const [kind, setKind] = useState('');
  const [offset, setOffset] = useState(0);
  const query = useQuery({
    queryKey: ['admin', 'ledger-accounts', kind, offset],
    queryFn: () => adminApi.get<LedgerAccountPage>(AdminPath.ledgerAccounts, { kind: kind || undefined, limit: PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="admin-card">
      <h2>{t('money.accounts')}</h2>
      <label className="admin-select">
        {t('money.kind')}
        <select
          value={kind}
          onChange={(event) => {
            setKind(event.target.value);
            setOffset(0);
          }}
        >
          <option value="">{t('money.allKinds')}</option>
          {KINDS.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
      <QueryState query={query}>
        {(page) => (
          <>
            <table className="admin-table">
              <thead>
                <tr>
                  <th>#</th>
                  <th>{t('money.kind')}</th>
                  <th>{t('money.part')}</th>
                  <th>{t('money.owner')}</th>
                  <th>{t('money.balance')}</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((account) => (
                  <tr key={account.id}>
                    <td>{account.id}</td>
                    <td>{account.kind}</td>
                    <td>{account.part ?? '—'}</td>
                    <td>{account.username ?? (account.machine_id === null ? '—' : `#${account.machine_id}`)}</td>
                    <td className="admin-num">{format.money(account.balance)}</td>
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
