import type { AdminPlayerList, AdminPlayerSummary } from '@reel/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { PagedTable, type AdminColumn } from '../components/admin-table';
import { FilterForm } from '../components/filter-form';
import { usePagedList } from '../components/paged-list';

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
  const list = usePagedList<AdminPlayerList>('players', AdminPath.players, {});
  const columns: AdminColumn<AdminPlayerSummary>[] = [
    { header: t('players.id'), cell: (player) => player.id },
    { header: t('players.username'), cell: (player) => <Link to={`/admin/players/${player.id}`}>{player.username}</Link> },
    { header: t('players.name'), cell: (player) => `${player.name} ${player.lastname}`.trim() },
    { header: t('players.email'), cell: (player) => player.email },
    { header: t('players.balance'), cell: (player) => format.money(player.balance), kind: 'num' },
    { header: t('players.state'), cell: (player) => <PlayerState player={player} /> },
    { header: t('players.lastLogon'), cell: (player) => format.date(player.last_logon) },
  ];
  return (
    <section className="admin-page">
      <h1>{t('players.heading')}</h1>
      <FilterForm search fields={[{ name: 'q', label: t('players.searchLabel') }]} submit={t('common.search')} onApply={({ q }) => list.filter({ q })} />
      <PagedTable query={list.query} offset={list.offset} onOffset={list.setOffset} columns={columns} rowKey={(player) => player.id} />
    </section>
  );
}
