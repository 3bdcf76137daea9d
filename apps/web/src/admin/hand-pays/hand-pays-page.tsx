import type { HandPayApproveResult, HandPayView } from '@reel/protocol';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast-store';
import { adminApi, fillPath } from '../lib/admin-api';
import { AdminHandPayPath } from '../lib/contract';
import { useAdminFormat } from '../lib/use-admin-format';
import { QueryState } from '../components/query-state';
import { ReasonDialog } from '../components/reason-dialog';
import { useFloor } from '../floor/use-floor';

const HAND_PAYS_KEY = ['admin', 'hand-pays'] as const;

/**
 * The hand pays waiting for staff. The floor's push counts them per machine: when that count
 * changes, the queue is asked again, so a new win appears without polling.
 */
function useHandPayQueue() {
  const { query: floor } = useFloor();
  const waitingOnFloor = floor.data?.machines.reduce((sum, machine) => sum + machine.handPaysWaiting, 0) ?? 0;
  return useQuery({
    queryKey: [...HAND_PAYS_KEY, waitingOnFloor],
    queryFn: () => adminApi.get<HandPayView[]>(AdminHandPayPath.list, { status: 'waiting' }),
    placeholderData: keepPreviousData,
  });
}

function ApproveDialog({ handPay, onClose }: { handPay: HandPayView; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const queryClient = useQueryClient();
  return (
    <ReasonDialog
      title={`${t('handPays.approve')}: ${handPay.machineName}, ${format.money(handPay.amountCents)}`}
      confirmLabel={t('handPays.approve')}
      onConfirm={async (reason) => {
        const answer = await adminApi.post<HandPayApproveResult>(fillPath(AdminHandPayPath.approve, { id: handPay.id }), { reason });
        toast.success(answer.paid ? t('handPays.paid', { amount: format.money(handPay.amountCents), username: handPay.username }) : t('handPays.firstSigned'));
        await queryClient.invalidateQueries({ queryKey: HAND_PAYS_KEY });
      }}
      onClose={onClose}
    />
  );
}

/** The queue of big wins waiting for staff; each approval asks a reason, the server decides who may sign. */
export function HandPaysPage() {
  const { t } = useTranslation('admin');
  const format = useAdminFormat();
  const query = useHandPayQueue();
  const [approving, setApproving] = useState<HandPayView | null>(null);
  return (
    <section className="admin-page">
      <h1>{t('handPays.heading')}</h1>
      <QueryState query={query}>
        {(queue) =>
          queue.length === 0 ? (
            <p>{t('handPays.empty')}</p>
          ) : (
            <table className="admin-table">
              <thead>
                <tr>
                  <th>{t('handPays.machine')}</th>
                  <th>{t('handPays.player')}</th>
                  <th>{t('handPays.amount')}</th>
                  <th>{t('handPays.requested')}</th>
                  <th>{t('handPays.signers')}</th>
                  <th>{t('floor.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {queue.map((handPay) => (
                  <tr key={handPay.id}>
                    <td>{handPay.machineName}</td>
                    <td>
                      <Link to={`/admin/players/${handPay.playerId}`}>{handPay.username}</Link>
                    </td>
                    <td className="admin-num">{format.money(handPay.amountCents)}</td>
                    <td>{format.date(handPay.requestedAt)}</td>
                    <td>
                      <div className="admin-stack">
                        {handPay.firstSigner ? <span>{handPay.firstSigner}</span> : null}
                        {handPay.needsSecond ? <span className="admin-badge admin-badge--warn">{t('handPays.secondSigner')}</span> : null}
                      </div>
                    </td>
                    <td>
                      <Button aria-label={`${t('handPays.approve')}: ${handPay.machineName}`} onClick={() => setApproving(handPay)}>
                        {t('handPays.approve')}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
      {approving ? <ApproveDialog handPay={approving} onClose={() => setApproving(null)} /> : null}
    </section>
  );
}
