import { REALITY_CHECK_MINUTES } from '@reel/protocol/client';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { messageForError } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import { useLimitActions } from '../api/protection-api';

/** The player's reality check interval, in minutes of play. */
export function RealityCheckSetting({ minutes }: { minutes: number }) {
  const { t } = useTranslation();
  const actions = useLimitActions();
  const [entry, setEntry] = useState(String(minutes));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await actions.setRealityCheck(Number(entry));
      toast.success(t('protection.saved'));
    } catch (error) {
      toast.error(messageForError(error));
    }
  };
  return (
    <section className="card protection__reality" aria-labelledby="reality-title">
      <h2 id="reality-title" className="card__title">
        {t('protection.realityTitle')}
      </h2>
      <p className="muted">{t('protection.realitySettingIntro', { minutes })}</p>
      <form className="protection__form" onSubmit={(event) => void submit(event)}>
        <TextField
          label={t('protection.realityEvery')}
          type="number"
          min={REALITY_CHECK_MINUTES.min}
          max={REALITY_CHECK_MINUTES.max}
          value={entry}
          onChange={(event) => setEntry(event.target.value)}
        />
        <Button type="submit">{t('common.save')}</Button>
      </form>
    </section>
  );
}
