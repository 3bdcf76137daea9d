import { AUTOPLAY_SPIN_CHOICES, type AutoplayStops } from '@reel/protocol/client';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextField } from '@/components/ui/text-field';
import { parseMoneyEntry } from '@/lib/money';

interface AutoplayDialogProps {
  open: boolean;
  onStart: (stops: AutoplayStops) => void;
  onClose: () => void;
}

/**
 * Turning autoplay on (issue 28): the player chooses where it stops, a number of spins and
 * optionally a loss and a single win. The server counts and stops it; this only asks.
 */
export function AutoplayDialog({ open, onStart, onClose }: AutoplayDialogProps) {
  const { t } = useTranslation();
  const [spins, setSpins] = useState<number>(AUTOPLAY_SPIN_CHOICES[0]);
  const [loss, setLoss] = useState('');
  const [win, setWin] = useState('');
  const lossCents = loss.trim() ? parseMoneyEntry(loss) : undefined;
  const winCents = win.trim() ? parseMoneyEntry(win) : undefined;
  const invalid = lossCents === null || winCents === null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    onStart({ spins, ...(lossCents ? { lossCents } : {}), ...(winCents ? { singleWinCents: winCents } : {}) });
  };

  return (
    <Dialog
      open={open}
      title={t('game.autoplayTitle')}
      onClose={onClose}
      closeLabel={t('common.close')}
      actions={
        <>
          <Button variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form="autoplay-stops" disabled={invalid}>
            {t('game.autoplayStart')}
          </Button>
        </>
      }
    >
      <form id="autoplay-stops" className="autoplay-stops" onSubmit={submit} data-testid="autoplay-stops">
        <fieldset>
          <legend>{t('game.autoplaySpins')}</legend>
          {AUTOPLAY_SPIN_CHOICES.map((choice) => (
            <label key={choice} className="autoplay-stops__choice">
              <input type="radio" name="autoplay-spins" value={choice} checked={spins === choice} onChange={() => setSpins(choice)} />
              {choice}
            </label>
          ))}
        </fieldset>
        <TextField
          label={t('game.autoplayLoss')}
          hint={t('game.autoplayOptional')}
          inputMode="decimal"
          value={loss}
          error={lossCents === null ? t('game.autoplayAmountInvalid') : undefined}
          onChange={(event) => setLoss(event.target.value)}
        />
        <TextField
          label={t('game.autoplayWin')}
          hint={t('game.autoplayOptional')}
          inputMode="decimal"
          value={win}
          error={winCents === null ? t('game.autoplayAmountInvalid') : undefined}
          onChange={(event) => setWin(event.target.value)}
        />
      </form>
    </Dialog>
  );
}
