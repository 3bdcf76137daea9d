import { BREAK_PERIODS, breakEnd, Code, type BreakPeriod } from '@reel/protocol/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { autoLogout, messageForError } from '@/lib/auth';
import { formatDateTime, translateCode } from '@/lib/i18n';
import { toast } from '@/lib/toast-store';
import { takeBreak } from '../api/protection-api';

const PERIODS = Object.keys(BREAK_PERIODS) as BreakPeriod[];

/**
 * A cool-off or self-exclusion, asked twice: the first dialog says what it does, the second asks to
 * confirm that it cannot be shortened. The server signs the player out; the login page says until when.
 */
export function BreakSection() {
  const { t, i18n } = useTranslation();
  const [period, setPeriod] = useState<BreakPeriod>('cool_off_24h');
  const [step, setStep] = useState<0 | 1 | 2>(0);
  const [busy, setBusy] = useState(false);
  // What the dialogs show; the server sets the real end when it starts the break.
  const until = formatDateTime(breakEnd(period, Date.now()).toISOString(), i18n.language);
  const exclusion = BREAK_PERIODS[period].kind === 'self_exclusion';

  const confirm = async () => {
    setBusy(true);
    try {
      const answer = await takeBreak(period);
      const code = answer.break.kind === 'self_exclusion' ? Code.SelfExcluded : Code.CoolingOff;
      await autoLogout(translateCode(code, { until: answer.break.endsAt }));
    } catch (error) {
      toast.error(messageForError(error));
      setBusy(false);
      setStep(0);
    }
  };

  return (
    <section className="card protection__break" aria-labelledby="break-title">
      <h2 id="break-title" className="card__title">
        {t('protection.breakTitle')}
      </h2>
      <p className="muted">{t('protection.breakIntro')}</p>
      <fieldset className="protection__periods">
        <legend>{t('protection.breakLength')}</legend>
        {PERIODS.map((option) => (
          <label key={option} className="protection__period">
            <input type="radio" name="break-period" value={option} checked={period === option} onChange={() => setPeriod(option)} />
            {t(`protection.periods.${option}`)}
          </label>
        ))}
      </fieldset>
      <Button variant="secondary" onClick={() => setStep(1)}>
        {exclusion ? t('protection.selfExclude') : t('protection.takeBreak')}
      </Button>
      <Dialog
        open={step === 1}
        title={t('protection.breakConfirmTitle')}
        onClose={() => setStep(0)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setStep(0)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => setStep(2)}>{t('common.continue')}</Button>
          </>
        }
      >
        <p>{t('protection.breakConfirmText', { period: t(`protection.periods.${period}`), until })}</p>
      </Dialog>
      <Dialog
        open={step === 2}
        role="alertdialog"
        title={t('protection.breakFinalTitle')}
        onClose={busy ? undefined : () => setStep(0)}
        actions={
          <>
            <Button variant="secondary" disabled={busy} onClick={() => setStep(0)}>
              {t('common.cancel')}
            </Button>
            <Button busy={busy} disabled={busy} onClick={() => void confirm()}>
              {t('protection.breakFinalConfirm')}
            </Button>
          </>
        }
      >
        <p>{t('protection.breakFinalText', { until })}</p>
      </Dialog>
    </section>
  );
}
