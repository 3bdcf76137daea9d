import type { SlotSessionRow, TransactionRow } from '@reel/protocol/client';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '@/lib/duration';
import { useMoney } from '@/lib/use-money';
import { HistoryTable, type Column } from './history-table';
import { RecallButton } from './recall-button';

function useFormatters() {
  const { t, i18n } = useTranslation();
  const format = useMoney();
  const date = (iso: string | null | undefined) => {
    if (!iso) return '—';
    const value = new Date(iso);
    return Number.isNaN(value.getTime())
      ? '—'
      : value.toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });
  };
  const money = (cents: number | null | undefined) =>
    cents === null || cents === undefined ? (
      '—'
    ) : (
      <span className={cents < 0 ? 'amount amount--neg' : 'amount'}>{format(cents)}</span>
    );
  const type = (value: string) =>
    i18n.exists(`history.types.${value}`) ? t(`history.types.${value}`) : value;
  return { t, date, money, type };
}

export function TransactionsPage() {
  const { t, date, money, type } = useFormatters();
  const columns: Column<TransactionRow>[] = [
    { id: 'date', header: t('history.columns.date'), cell: (row) => date(row.date) },
    {
      id: 'duration',
      header: t('history.columns.duration'),
      cell: (row) => formatDuration(row.duration_s),
      numeric: true,
    },
    { id: 'from', header: t('history.columns.from'), cell: (row) => row.from },
    { id: 'amount', header: t('history.columns.amount'), cell: (row) => money(row.amount), numeric: true },
    { id: 'type', header: t('history.columns.type'), cell: (row) => type(row.type) },
    { id: 'machine', header: t('history.columns.machine'), cell: (row) => row.machine ?? '—' },
    { id: 'start', header: t('history.columns.start'), cell: (row) => date(row.start) },
    { id: 'end', header: t('history.columns.end'), cell: (row) => date(row.end) },
    {
      id: 'spins',
      header: t('history.columns.spinCount'),
      cell: (row) => row.spin_count ?? '—',
      numeric: true,
    },
    {
      id: 'freeSpins',
      header: t('history.columns.freeSpinCount'),
      cell: (row) => row.free_spin_count ?? '—',
      numeric: true,
    },
    { id: 'tag', header: t('history.columns.tag'), cell: (row) => row.tag ?? '—' },
  ];
  return <HistoryTable kind="transactions" title={t('history.transactions')} columns={columns} />;
}

export function SlotSessionsPage() {
  const { t, date, money } = useFormatters();
  const status = (value: string) => t(`history.sessionStatus.${value}`, { defaultValue: value }) as string;
  const columns: Column<SlotSessionRow>[] = [
    { id: 'machine', header: t('history.columns.machine'), cell: (row) => row.machine },
    { id: 'brand', header: t('history.columns.brand'), cell: (row) => row.brand },
    { id: 'start', header: t('history.columns.start'), cell: (row) => date(row.start) },
    { id: 'end', header: t('history.columns.end'), cell: (row) => date(row.end) },
    {
      id: 'duration',
      header: t('history.columns.duration'),
      cell: (row) => formatDuration(row.duration_s),
      numeric: true,
    },
    { id: 'spins', header: t('history.columns.spinCount'), cell: (row) => row.spin_count, numeric: true },
    {
      id: 'freeSpins',
      header: t('history.columns.freeSpinCount'),
      cell: (row) => row.free_spin_count,
      numeric: true,
    },
    { id: 'cashIn', header: t('history.columns.cashIn'), cell: (row) => money(row.cash_in), numeric: true },
    {
      id: 'cashOut',
      header: t('history.columns.cashOut'),
      cell: (row) => money(row.cash_out),
      numeric: true,
    },
    { id: 'net', header: t('history.columns.net'), cell: (row) => money(row.net), numeric: true },
    { id: 'status', header: t('history.columns.status'), cell: (row) => status(row.status) },
    { id: 'games', header: t('history.recall.title'), cell: (row) => <RecallButton sessionId={row.id} machine={row.machine} /> },
  ];
  return <HistoryTable kind="slotSessions" title={t('history.slotSessions')} columns={columns} />;
}
