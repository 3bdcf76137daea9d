import type { AuditPage as AuditPageAnswer, AuditQuery } from '@reel/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { adminApi } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';
import { PAGE_SIZE, Pager } from '../components/pager';
import { AuditVerify } from './audit-verify';

type Filters = Pick<AuditQuery, 'actor' | 'action' | 'target' | 'from' | 'to'>;
const FIELDS = ['actor', 'action', 'target'] as const;

/** A `datetime-local` value as the ISO instant the server's filter takes. */
const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);

function change(before: unknown, after: unknown): string {
  const text = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));
  return `${text(before)} → ${text(after)}`;
}

/** Every operator action and money correction, newest first, with filters and the chain's verify. */
export function AuditPage() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [filters, setFilters] = useState<Filters>({});
  const [offset, setOffset] = useState(0);
  const query = useQuery({
    queryKey: ['admin', 'audit', filters, offset],
    queryFn: () => adminApi.get<AuditPageAnswer>(AdminPath.audit, { ...filters, limit: PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
  });

  function apply(event: FormEvent) {
    event.preventDefault();
    const trimmed = (name: string) => draft[name]?.trim() || undefined;
    setFilters({ actor: trimmed('actor'), action: trimmed('action'), target: trimmed('target'), from: toIso(draft.from ?? ''), to: toIso(draft.to ?? '') });
    setOffset(0);
  }

  const edit = (name: string) => (event: { target: { value: string } }) => setDraft((current) => ({ ...current, [name]: event.target.value }));

  return (
    <section className="admin-page">
      <h1>{t('audit.heading')}</h1>
      <AuditVerify />
      <form className="admin-toolbar" onSubmit={apply}>
        {FIELDS.map((name) => (
          <TextField key={name} label={t(`audit.${name}`)} value={draft[name] ?? ''} onChange={edit(name)} />
        ))}
        <TextField label={t('audit.from')} type="datetime-local" value={draft.from ?? ''} onChange={edit('from')} />
        <TextField label={t('audit.to')} type="datetime-local" value={draft.to ?? ''} onChange={edit('to')} />
        <Button type="submit">{t('audit.filter')}</Button>
      </form>
      <QueryState query={query}>
        {(page) =>
          page.items.length === 0 ? (
            <p>{t('common.none')}</p>
          ) : (
            <>
              <table className="admin-table">
                <thead>
                  <tr>
                    <th>{t('audit.seq')}</th>
                    <th>{t('audit.at')}</th>
                    <th>{t('audit.actor')}</th>
                    <th>{t('audit.action')}</th>
                    <th>{t('audit.target')}</th>
                    <th>{t('audit.reason')}</th>
                    <th>{t('audit.change')}</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((row) => (
                    <tr key={row.seq}>
                      <td>{row.seq}</td>
                      <td>{format.date(row.at)}</td>
                      <td>{row.actor}</td>
                      <td>{row.action}</td>
                      <td>{row.target}</td>
                      <td>{row.reason}</td>
                      <td className="admin-code">{change(row.before, row.after)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager offset={offset} total={page.total} onOffset={setOffset} />
            </>
          )
        }
      </QueryState>
    </section>
  );
}
