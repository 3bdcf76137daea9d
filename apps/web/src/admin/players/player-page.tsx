import type { AdminPlayerDetail } from '@reel/protocol';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { adminApi, fillPath } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';
import { PlayerActions } from './player-actions';
import { PlayerProtection } from './player-protection';
import { PlayerState } from './players-page';
import { LoginLog, PlayerNotes, PlayerSessions, PlayerTransactions } from './player-tables';

function Wallet({ detail }: { detail: AdminPlayerDetail }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const parts = ['cash', 'credit', 'bonus', 'discount'] as const;
  return (
    <section className="admin-card">
      <h2>{t('player.wallet')}</h2>
      <dl className="admin-figures">
        <div>
          <dt>{t('player.total')}</dt>
          <dd>{format.money(detail.wallet.balance)}</dd>
        </div>
        {parts.map((part) => (
          <div key={part}>
            <dt>{t(`player.${part}`)}</dt>
            <dd>{format.money(detail.wallet[part])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** One player: state, wallet parts, actions, protection (limits and breaks), sessions, transactions, login log and notes. */
export function PlayerPage() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const id = Number(useParams().id);
  const query = useQuery({
    queryKey: ['admin', 'player', id],
    queryFn: () => adminApi.get<AdminPlayerDetail>(fillPath(AdminPath.player, { id })),
  });
  return (
    <section className="admin-page">
      <Link to="/admin/players">{t('player.back')}</Link>
      <QueryState query={query}>
        {(detail) => (
          <>
            <h1>
              {detail.player.username} <PlayerState player={detail.player} />
            </h1>
            <p className="admin-muted">
              {[
                `${detail.player.name} ${detail.player.lastname}`.trim(),
                detail.player.email,
                t('player.failedLogins', { count: detail.player.failed_logins }),
                detail.player.blocked_until ? t('player.blockedUntil', { at: format.date(detail.player.blocked_until) }) : null,
                detail.player.pin_set ? t('player.pinSet') : t('player.pinNotSet'),
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
            <PlayerActions player={detail.player} />
            <Wallet detail={detail} />
            <PlayerProtection player={detail.player} />
            <PlayerSessions rows={detail.sessions} />
            <PlayerTransactions rows={detail.transactions} />
            <LoginLog rows={detail.logins} />
            <PlayerNotes playerId={id} notes={detail.notes} />
          </>
        )}
      </QueryState>
    </section>
  );
}
