import type { AdminPlayerList, AdminPlayerSummary } from '@reel/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { adminApi } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';
import { PAGE_SIZE, Pager } from '../components/pager';

export function PlayerState({ player }: { player: AdminPlayerSummary }) {
  const { t } = useTranslation('admin');
  if (player.banned) return <span className="admin-badge admin-badge--bad">{t('players.banned')}</span>;
  if (player.locked) return <span className="admin-badge admin-badge--warn">{t('players.locked')}</span>;
  return <span className="admin-badge">{t('players.active')}</span>;
}

/** Search by username, email, name or id; each row opens the player's page. */
export function PlayersPage() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const query = useQuery({
    queryKey: ['admin', 'players', q, offset],
    queryFn: () => adminApi.get<AdminPlayerList>(AdminPath.players, { q: q || undefined, limit: PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
  });

  function search(event: FormEvent) {
    event.preventDefault();
    setQ(draft.trim());
    setOffset(0);
  }

  return (
    <section className="admin-page">
      <h1>{t('players.heading')}</h1>
      <form className="admin-toolbar" role="search" onSubmit={search}>
        <TextField label={t('players.searchLabel')} value={draft} onChange={(event) => setDraft(event.target.value)} />
        <Button type="submit">{t('common.search')}</Button>
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
                    <th>{t('players.id')}</th>
                    <th>{t('players.username')}</th>
                    <th>{t('players.name')}</th>
                    <th>{t('players.email')}</th>
                    <th>{t('players.balance')}</th>
                    <th>{t('players.state')}</th>
                    <th>{t('players.lastLogon')}</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((player) => (
                    <tr key={player.id}>
                      <td>{player.id}</td>
                      <td>
                        <Link to={`/admin/players/${player.id}`}>{player.username}</Link>
                      </td>
                      <td>{`${player.name} ${player.lastname}`.trim()}</td>
                      <td>{player.email}</td>
                      <td className="admin-num">{format.money(player.balance)}</td>
                      <td>
                        <PlayerState player={player} />
                      </td>
                      <td>{format.date(player.last_logon)}</td>
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
