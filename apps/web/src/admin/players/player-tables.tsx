import type { LoginLogRow, PlayerNote, SlotSessionRow, TransactionRow } from '@reel/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { adminApi, fillPath } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { errorText } from '../components/reason-dialog';

function Empty() {
  const { t } = useTranslation('admin');
  return <p className="admin-muted">{t('common.none')}</p>;
}

export function PlayerSessions({ rows }: { rows: SlotSessionRow[] }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  return (
    <section className="admin-card">
      <h2>{t('player.sessions')}</h2>
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t('player.machine')}</th>
              <th>{t('player.started')}</th>
              <th>{t('player.ended')}</th>
              <th>{t('floor.credits')}</th>
              <th>{t('floor.net')}</th>
              <th>{t('floor.status')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td>{row.machine}</td>
                <td>{format.date(row.start)}</td>
                <td>{format.date(row.end)}</td>
                <td className="admin-num">{format.money(row.cash_in)}</td>
                <td className="admin-num">{format.money(row.net)}</td>
                <td>{row.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function PlayerTransactions({ rows }: { rows: TransactionRow[] }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  return (
    <section className="admin-card">
      <h2>{t('player.transactions')}</h2>
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t('player.at')}</th>
              <th>{t('player.type')}</th>
              <th>{t('player.machine')}</th>
              <th>{t('player.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td>{format.date(row.date)}</td>
                <td>{row.tag ? `${row.type} (${row.tag})` : row.type}</td>
                <td>{row.machine ?? row.from}</td>
                <td className="admin-num">{format.money(row.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function LoginLog({ rows }: { rows: LoginLogRow[] }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  return (
    <section className="admin-card">
      <h2>{t('player.logins')}</h2>
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t('player.at')}</th>
              <th>{t('player.type')}</th>
              <th>{t('player.ip')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={`${row.at}-${index}`}>
                <td>{format.date(row.at)}</td>
                <td>{row.type}</td>
                <td>{row.ip ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The player's notes; a new note's text is also its audit reason. */
export function PlayerNotes({ playerId, notes }: { playerId: number; notes: PlayerNote[] }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await adminApi.post(fillPath(AdminPath.playerNotes, { id: playerId }), { text: text.trim() });
      setText('');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'player', playerId] });
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-card">
      <h2>{t('player.notes')}</h2>
      {notes.length === 0 ? (
        <Empty />
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
      <form className="admin-toolbar" onSubmit={(event) => void add(event)}>
        <TextField label={t('player.noteText')} value={text} maxLength={2000} onChange={(event) => setText(event.target.value)} />
        <Button type="submit" busy={busy}>
          {t('player.addNote')}
        </Button>
      </form>
      <FormAlert>{error}</FormAlert>
    </section>
  );
}
