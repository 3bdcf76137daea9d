import type { LedgerAuditResponse } from '@reel/protocol';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { adminApi } from '../lib/admin-api';
import { AdminPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';

/** `operator audit` on demand: the server runs it and answers its result. */
export function LedgerAudit() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const query = useQuery({
    queryKey: ['admin', 'ledger-audit'],
    queryFn: () => adminApi.get<LedgerAuditResponse>(AdminPath.ledgerAudit),
    enabled: false,
  });
  return (
    <section className="admin-card">
      <h2>{t('money.audit')}</h2>
      <Button variant="secondary" busy={query.isFetching} onClick={() => void query.refetch()}>
        {t('money.runAudit')}
      </Button>
      {query.isFetched || query.isError ? (
        <QueryState query={query}>
          {(audit) => (
            <div role="status" className={audit.ok ? 'admin-result admin-result--ok' : 'admin-result admin-result--bad'}>
              <strong>{audit.ok ? t('money.auditOk') : t('money.auditBad')}</strong>
              <p>{t('money.auditFigures', { ...audit, total: format.money(audit.total) })}</p>
              {audit.players.length > 0 ? (
                <table className="admin-table">
                  <thead>
                    <tr>
                      <th>{t('players.username')}</th>
                      <th>{t('money.wallet')}</th>
                      <th>{t('money.onMachines')}</th>
                      <th>{t('money.expected')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {audit.players.map((player) => (
                      <tr key={player.playerId}>
                        <td>{player.username}</td>
                        <td className="admin-num">{format.money(player.walletCents)}</td>
                        <td className="admin-num">{format.money(player.onMachinesCents)}</td>
                        <td className="admin-num">{format.money(player.expectedCents)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : null}
            </div>
          )}
        </QueryState>
      ) : null}
    </section>
  );
}
