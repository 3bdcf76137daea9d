import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from './pager';
import { QueryState } from './query-state';

export interface AdminColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** `num`: figures, aligned at the end; `code`: monospace; `muted`: secondary text. */
  kind?: 'num' | 'code' | 'muted';
}

interface AdminTableProps<Row> {
  /** When set, the table stands in a card of its own under this heading. */
  title?: string;
  columns: AdminColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row, index: number) => string | number;
  /** Shown instead of a table with no rows; "None" by default. */
  empty?: ReactNode;
  /** Under the table, e.g. the pager. */
  footer?: ReactNode;
}

/** A section of the console: a card with its heading. */
export function AdminCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="admin-card">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** The console's table: a header row from the columns, one row a record, or the empty line. */
export function AdminTable<Row>({ title, columns, rows, rowKey, empty, footer }: AdminTableProps<Row>) {
  const { t } = useTranslation('admin');
  const body =
    rows.length === 0 ? (
      <p className="admin-muted">{empty ?? t('common.none')}</p>
    ) : (
      <>
        <table className="admin-table">
          <thead>
            <tr>
              {columns.map((column, index) => (
                <th key={index}>{column.header}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, rowIndex) => (
              <tr key={rowKey(row, rowIndex)}>
                {columns.map((column, index) => (
                  <td key={index} className={column.kind && `admin-${column.kind}`}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {footer}
      </>
    );
  return title ? <AdminCard title={title}>{body}</AdminCard> : body;
}

interface PagedTableProps<Row> extends Omit<AdminTableProps<Row>, 'rows' | 'footer'> {
  query: UseQueryResult<{ items: Row[]; total: number }>;
  offset: number;
  onOffset: (offset: number) => void;
}

/** A page of a server list: its loading and refusal, the table, and the pager under it. */
export function PagedTable<Row>({ query, offset, onOffset, ...table }: PagedTableProps<Row>) {
  return (
    <QueryState query={query}>
      {(page) => <AdminTable {...table} rows={page.items} footer={<Pager offset={offset} total={page.total} onOffset={onOffset} />} />}
    </QueryState>
  );
}
