import { CENTS_PER_UNIT, type Params } from '@reel/protocol/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { paths } from '@/config/paths';
import { messageForError } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import { acknowledgeRealityCheck } from '../api/protection-api';
import { SessionFigures } from './session-figures';

interface RealityCheckDialogProps {
  /** The server's 40920 Params: minutes, elapsed_s, spins, money_in, money_out, net. */
  summary: Params | null;
  money: (cents: number) => string;
  /** The player goes on: the server let the next spin through. */
  onContinue: () => void;
  /** Cash out and leave the machine. */
  onLeave: () => void;
}

const cents = (decimal: string | number | undefined) => Math.round(Number(decimal ?? 0) * CENTS_PER_UNIT);

/** The reality check the server holds the next spin for (issue 28). */
export function RealityCheckDialog({ summary, money, onContinue, onLeave }: RealityCheckDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  if (!summary) return null;
  const proceed = async () => {
    setBusy(true);
    try {
      await acknowledgeRealityCheck();
      onContinue();
    } catch (error) {
      toast.error(messageForError(error));
    } finally {
      setBusy(false);
    }
  };
  const figures = {
    elapsedS: Number(summary.elapsed_s ?? 0),
    spins: Number(summary.spins ?? 0),
    moneyInCents: cents(summary.money_in),
    moneyOutCents: cents(summary.money_out),
    netCents: cents(summary.net),
  };
  return (
    <Dialog
      open
      role="alertdialog"
      title={t('protection.realityTitle')}
      actions={
        <>
          <a className="btn btn--ghost" href={paths.slotSessions} target="_blank" rel="noreferrer">
            {t('protection.realityHistory')}
          </a>
          <Button variant="secondary" disabled={busy} onClick={onLeave}>
            {t('protection.realityLeave')}
          </Button>
          <Button busy={busy} disabled={busy} onClick={() => void proceed()}>
            {t('protection.realityContinue')}
          </Button>
        </>
      }
    >
      <p>{t('protection.realityIntro', { minutes: summary.minutes })}</p>
      <SessionFigures figures={figures} money={money} testId="reality-check" />
    </Dialog>
  );
}
