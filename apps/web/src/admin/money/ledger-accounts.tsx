import type { LedgerAccountPage } from '@reel/protocol';
import { useTranslation } from 'react-i18next';
import { AdminPath, LedgerAccountKind } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { AdminCard, PagedTable, type AdminColumn } from '../components/admin-table';
import { usePagedList } from '../components/paged-list';

/** The filter's choices: the contract's account kinds. */
const KINDS = LedgerAccountKind.anyOf.map((literal) => literal.const);

type Account = LedgerAccountPage['items'][number];

export function LedgerAccounts() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const list = usePagedList<LedgerAccountPage, { kind?: string }>('ledger-accounts', AdminPath.ledgerAccounts, {});
  const columns: AdminColumn<Account>[] = [
    { header: '#', cell: (account) => account.id },
    { header: t('money.kind'), cell: (account) => account.kind },
    { header: t('money.part'), cell: (account) => account.part ?? '—' },
    { header: t('money.owner'), cell: (account) => account.username ?? (account.machine_id === null ? '—' : `#${account.machine_id}`) },
    { header: t('money.balance'), cell: (account) => format.money(account.balance), kind: 'num' },
  ];
  return (
    <AdminCard title={t('money.accounts')}>
      <label className="admin-select">
        {t('money.kind')}
        <select value={list.filters.kind ?? ''} onChange={(event) => list.filter({ kind: event.target.value || undefined })}>
          <option value="">{t('money.allKinds')}</option>
          {KINDS.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
      <PagedTable query={list.query} offset={list.offset} onOffset={list.setOffset} columns={columns} rowKey={(account) => account.id} />
    </AdminCard>
  );
}
