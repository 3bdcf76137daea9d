import type { AuditPage as AuditPageAnswer, AuditRow } from '@reel/protocol';
import { useTranslation } from 'react-i18next';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { PagedTable, type AdminColumn } from '../components/admin-table';
import { FilterForm } from '../components/filter-form';
import { usePagedList } from '../components/paged-list';
import { AuditVerify } from './audit-verify';

/** A `datetime-local` value as the ISO instant the server's filter takes. */
const toIso = (local: string | undefined) => (local ? new Date(local).toISOString() : undefined);

function change(before: unknown, after: unknown): string {
  const text = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));
  return `${text(before)} → ${text(after)}`;
}

/** Every operator action and money correction, newest first, with filters and the chain's verify. */
export function AuditPage() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const list = usePagedList<AuditPageAnswer>('audit', AdminPath.audit, {});
  const columns: AdminColumn<AuditRow>[] = [
    { header: t('audit.seq'), cell: (row) => row.seq },
    { header: t('audit.at'), cell: (row) => format.date(row.at) },
    { header: t('audit.actor'), cell: (row) => row.actor },
    { header: t('audit.action'), cell: (row) => row.action },
    { header: t('audit.target'), cell: (row) => row.target },
    { header: t('audit.reason'), cell: (row) => row.reason },
    { header: t('audit.change'), cell: (row) => change(row.before, row.after), kind: 'code' },
  ];
  const fields = [
    ...(['actor', 'action', 'target'] as const).map((name) => ({ name, label: t(`audit.${name}`) })),
    ...(['from', 'to'] as const).map((name) => ({ name, label: t(`audit.${name}`), type: 'datetime-local' as const })),
  ];
  return (
    <section className="admin-page">
      <h1>{t('audit.heading')}</h1>
      <AuditVerify />
      <FilterForm
        fields={fields}
        submit={t('audit.filter')}
        onApply={({ actor, action, target, from, to }) => list.filter({ actor, action, target, from: toIso(from), to: toIso(to) })}
      />
      <PagedTable query={list.query} offset={list.offset} onOffset={list.setOffset} columns={columns} rowKey={(row) => row.seq} />
    </section>
  );
}
