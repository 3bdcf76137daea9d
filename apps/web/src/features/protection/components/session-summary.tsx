import type { SlotSessionRow } from '@reel/protocol/client';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
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

interface SessionSummaryPanelProps {
  row: SlotSessionRow;
  money: (cents: number) => string;
  onClose: () => void;
}

/**
 * The closed session's figures (issue 28), the same as its /slot-sessions row. A panel, not a
 * modal: the lobby stays usable under it.
 */
export function SessionSummaryPanel({ row, money, onClose }: SessionSummaryPanelProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const figures = { elapsedS: row.duration_s, spins: row.spin_count, moneyInCents: row.cash_in, moneyOutCents: row.cash_out, netCents: row.net };
  return (
    <section className="session-summary" aria-labelledby={titleId}>
      <h2 id={titleId} className="session-summary__title">
        {t('protection.summaryTitle', { machine: row.machine })}
      </h2>
      <SessionFigures figures={figures} money={money} testId="session-summary" />
      <div className="session-summary__actions">
        <a className="btn btn--ghost" href={paths.slotSessions}>
          {t('protection.realityHistory')}
        </a>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </div>
    </section>
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
  return <SessionSummaryPanel row={row} money={money} onClose={close} />;
}
