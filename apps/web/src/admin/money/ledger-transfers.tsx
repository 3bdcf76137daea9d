import type { LedgerTransferPage } from '@reel/protocol';
import { useTranslation } from 'react-i18next';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { AdminCard, PagedTable, type AdminColumn } from '../components/admin-table';
import { usePagedList } from '../components/paged-list';

type Transfer = LedgerTransferPage['items'][number];

export function LedgerTransfers() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const list = usePagedList<LedgerTransferPage>('ledger-transfers', AdminPath.ledgerTransfers, {});
  const columns: AdminColumn<Transfer>[] = [
    { header: '#', cell: (transfer) => transfer.id },
    { header: t('money.at'), cell: (transfer) => format.date(transfer.at) },
    { header: t('money.kind'), cell: (transfer) => (transfer.tag ? `${transfer.kind} (${transfer.tag})` : transfer.kind) },
    { header: t('money.amount'), cell: (transfer) => format.money(transfer.amount), kind: 'num' },
    { header: t('money.entries'), cell: (transfer) => transfer.entries.map((entry) => `#${entry.account_id} ${format.money(entry.amount)}`).join(', ') },
    { header: t('money.key'), cell: (transfer) => transfer.idempotency_key ?? '—', kind: 'muted' },
  ];
  return (
    <AdminCard title={t('money.transfers')}>
      <PagedTable query={list.query} offset={list.offset} onOffset={list.setOffset} columns={columns} rowKey={(transfer) => transfer.id} />
    </AdminCard>
  );
}
