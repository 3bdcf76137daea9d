import type { SlotSessionRow } from '@reel/protocol/client';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { paths } from '@/config/paths';
import { useMoney } from '@/lib/use-money';
import { useClosedSessionRow } from '../api/session-summary-api';
import { SessionFigures } from './session-figures';

/** What the game screen hands the lobby when it leaves a session (router location state). */
interface ClosedSessionState {
  closedSessionId: string;
}

export function closedSessionState(sessionId: string | undefined): ClosedSessionState | undefined {
  return sessionId ? { closedSessionId: sessionId } : undefined;
}

interface SessionSummaryDialogProps {
  row: SlotSessionRow;
  money: (cents: number) => string;
  onClose: () => void;
}

/** The closed session's figures (issue 28), the same as its /slot-sessions row. */
export function SessionSummaryDialog({ row, money, onClose }: SessionSummaryDialogProps) {
  const { t } = useTranslation();
  const figures = { elapsedS: row.duration_s, spins: row.spin_count, moneyInCents: row.cash_in, moneyOutCents: row.cash_out, netCents: row.net };
  return (
    <Dialog
      open
      title={t('protection.summaryTitle', { machine: row.machine })}
      onClose={onClose}
      closeLabel={t('common.close')}
      actions={
        <>
          <a className="btn btn--ghost" href={paths.slotSessions}>
            {t('protection.realityHistory')}
          </a>
          <Button onClick={onClose}>{t('common.close')}</Button>
        </>
      }
    >
      <SessionFigures figures={figures} money={money} testId="session-summary" />
    </Dialog>
  );
}

/** On the lobby: the summary of the session the game screen just left, once the server closed it. */
export function SessionSummary() {
  const location = useLocation();
  const navigate = useNavigate();
  const money = useMoney();
  const sessionId = (location.state as Partial<ClosedSessionState> | null)?.closedSessionId ?? null;
  const { data: row } = useClosedSessionRow(sessionId);
  if (!sessionId || !row?.end) return null;
  // Shown once: a reload or a way back to this page does not bring it again.
  const close = () => void navigate(location.pathname, { replace: true, state: null });
  return <SessionSummaryDialog row={row} money={money} onClose={close} />;
}
