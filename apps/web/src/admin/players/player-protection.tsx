import type {
  AdminPlayerBreak,
  AdminPlayerProtection,
  AdminPlayerSummary,
  PlayerLimit,
} from '@reel/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast-store';
import { adminApi, fillPath } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { isAdmin } from '../lib/permissions';
import { useOperatorSession } from '../lib/operator-session';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';
import { ReasonDialog } from '../components/reason-dialog';

const protectionKey = (playerId: number) => ['admin', 'player', playerId, 'protection'];

function LimitsTable({ limits }: { limits: PlayerLimit[] }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  // Money limits are cents; the session time limit is minutes.
  const amount = (key: PlayerLimit['key'], value: number) =>
    key === 'session_minutes' ? t('protection.minutes', { count: value }) : format.money(value);
  return (
    <table className="admin-table">
      <caption>{t('protection.limits')}</caption>
      <thead>
        <tr>
          <th>{t('protection.limit')}</th>
          <th>{t('protection.value')}</th>
          <th>{t('protection.used')}</th>
          <th>{t('protection.resets')}</th>
          <th>{t('protection.pending')}</th>
        </tr>
      </thead>
      <tbody>
        {limits.map((limit) => (
          <tr key={limit.key}>
            <td>{t(`protection.keys.${limit.key}`)}</td>
            <td className="admin-num">
              {limit.value === null ? t('protection.noLimit') : amount(limit.key, limit.value)}
            </td>
            <td className="admin-num">{amount(limit.key, limit.used)}</td>
            <td>{format.date(limit.resetsAt)}</td>
            <td>
              {!limit.pending
                ? '—'
                : limit.pending.value === null
                  ? t('protection.pendingRemoval', { at: format.date(limit.pending.confirmableAt) })
                  : t('protection.pendingValue', {
                      value: amount(limit.key, limit.pending.value),
                      at: format.date(limit.pending.confirmableAt),
                    })}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function BreaksTable({ breaks }: { breaks: AdminPlayerBreak[] }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const state = (row: AdminPlayerBreak) =>
    row.active
      ? t('protection.active')
      : row.endedEarlyAt
        ? t('protection.endedEarly', {
            at: format.date(row.endedEarlyAt),
            by: row.endedBy ?? '—',
            reason: row.endReason ?? '',
          })
        : t('protection.over');
  if (breaks.length === 0) return <p className="admin-muted">{t('protection.noBreaks')}</p>;
  return (
    <table className="admin-table">
      <caption>{t('protection.breaks')}</caption>
      <thead>
        <tr>
          <th>{t('protection.kind')}</th>
          <th>{t('protection.started')}</th>
          <th>{t('protection.ends')}</th>
          <th>{t('protection.state')}</th>
        </tr>
      </thead>
      <tbody>
        {breaks.map((row) => (
          <tr key={row.id}>
            <td>{t(`protection.kinds.${row.kind}`)}</td>
            <td>{format.date(row.startsAt)}</td>
            <td>{format.date(row.endsAt)}</td>
            <td>{state(row)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Admins only (the server's ADMIN_ONLY route decides; staff are not offered it): asks why, then ends it. */
function EndSelfExclusion({ player }: { player: AdminPlayerSummary }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);

  async function confirm(reason: string) {
    const answer = await adminApi.post<AdminPlayerProtection>(
      fillPath(AdminPath.playerEndSelfExclusion, { id: player.id }),
      { reason },
    );
    queryClient.setQueryData(protectionKey(player.id), answer);
    toast.success(t('protection.ended'));
  }

  return (
    <div className="admin-actions">
      <Button variant="danger" onClick={() => setOpen(true)}>
        {t('protection.endSelfExclusion')}
      </Button>
      {open ? (
        <ReasonDialog
          title={t('protection.endTitle', { username: player.username })}
          confirmLabel={t('protection.endSelfExclusion')}
          danger
          onConfirm={confirm}
          onClose={() => setOpen(false)}
        >
          <p>{t('protection.endWarning')}</p>
        </ReasonDialog>
      ) : null}
    </div>
  );
}

/** The player's protection as the server applies it now: limits, every break, and an admin's early end of a self-exclusion. */
export function PlayerProtection({ player }: { player: AdminPlayerSummary }) {
  const { t } = useTranslation('admin');
  const operator = useOperatorSession((state) => state.operator);
  const query = useQuery({
    queryKey: protectionKey(player.id),
    queryFn: () =>
      adminApi.get<AdminPlayerProtection>(fillPath(AdminPath.playerProtection, { id: player.id })),
  });
  return (
    <section className="admin-card" aria-labelledby="player-protection">
      <h2 id="player-protection">{t('protection.heading')}</h2>
      <QueryState query={query}>
        {(protection) => (
          <>
            {isAdmin(operator) &&
            protection.breaks.some((row) => row.active && row.kind === 'self_exclusion') ? (
              <EndSelfExclusion player={player} />
            ) : null}
            <LimitsTable limits={protection.limits} />
            <BreaksTable breaks={protection.breaks} />
          </>
        )}
      </QueryState>
    </section>
  );
}
