import type { LoginLogRow, PlayerNote, SlotSessionRow, TransactionRow } from '@reel/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, fillPath } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { SendForm } from '../components/send-form';
import { AdminCard, AdminTable, type AdminColumn } from '../components/admin-table';

export function PlayerSessions({ rows }: { rows: SlotSessionRow[] }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const columns: AdminColumn<SlotSessionRow>[] = [
    { header: t('player.machine'), cell: (row) => row.machine },
    { header: t('player.started'), cell: (row) => format.date(row.start) },
    { header: t('player.ended'), cell: (row) => format.date(row.end) },
    { header: t('floor.credits'), cell: (row) => format.money(row.cash_in), kind: 'num' },
    { header: t('floor.net'), cell: (row) => format.money(row.net), kind: 'num' },
    { header: t('floor.status'), cell: (row) => row.status },
  ];
  return <AdminTable title={t('player.sessions')} columns={columns} rows={rows} rowKey={(row) => row.id} />;
}

export function PlayerTransactions({ rows }: { rows: TransactionRow[] }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const columns: AdminColumn<TransactionRow>[] = [
    { header: t('player.at'), cell: (row) => format.date(row.date) },
    { header: t('player.type'), cell: (row) => (row.tag ? `${row.type} (${row.tag})` : row.type) },
    { header: t('player.machine'), cell: (row) => row.machine ?? row.from },
    { header: t('player.amount'), cell: (row) => format.money(row.amount), kind: 'num' },
  ];
  return <AdminTable title={t('player.transactions')} columns={columns} rows={rows} rowKey={(row) => row.id} />;
}

export function LoginLog({ rows }: { rows: LoginLogRow[] }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const columns: AdminColumn<LoginLogRow>[] = [
    { header: t('player.at'), cell: (row) => format.date(row.at) },
    { header: t('player.type'), cell: (row) => row.type },
    { header: t('player.ip'), cell: (row) => row.ip ?? '—' },
  ];
  return <AdminTable title={t('player.logins')} columns={columns} rows={rows} rowKey={(row, index) => `${row.at}-${index}`} />;
}

/** The player's notes; a new note's text is also its audit reason. */
export function PlayerNotes({ playerId, notes }: { playerId: number; notes: PlayerNote[] }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const queryClient = useQueryClient();

  async function add(text: string) {
    await adminApi.post(fillPath(AdminPath.playerNotes, { id: playerId }), { text });
    await queryClient.invalidateQueries({ queryKey: ['admin', 'player', playerId] });
  }

  return (
    <AdminCard title={t('player.notes')}>
      {notes.length === 0 ? (
        <p className="admin-muted">{t('common.none')}</p>
      ) : (
        <ul className="admin-notes">
          {notes.map((note) => (
            <li key={note.id}>
              <span className="admin-muted">
                {format.date(note.at)} · {note.author}
              </span>
              <p>{note.text}</p>
            </li>
          ))}
        </ul>
      )}
      <SendForm label={t('player.noteText')} submit={t('player.addNote')} onSend={add} />
    </AdminCard>
  );
}
