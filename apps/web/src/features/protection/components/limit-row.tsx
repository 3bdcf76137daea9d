import type { PlayerLimit } from '@reel/protocol/client';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { messageForError } from '@/lib/auth';
import { formatDateTime } from '@/lib/i18n';
import { formatMoney, parseMoneyEntry } from '@/lib/money';
import { toast } from '@/lib/toast-store';
import { useLimitActions } from '../api/protection-api';

/** Money limits are entered in currency units and travel as cents; the session limit is minutes. */
const isMinutes = (limit: PlayerLimit) => limit.key === 'session_minutes';

function parseEntry(text: string, minutes: boolean): number | null {
  if (!minutes) return parseMoneyEntry(text);
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) && value > 0 ? Math.round(value) : null;
}

export function LimitRow({ limit, currency, locale }: { limit: PlayerLimit; currency: string; locale: string }) {
  const { t, i18n } = useTranslation();
  const actions = useLimitActions();
  const [entry, setEntry] = useState('');
  const [busy, setBusy] = useState(false);
  const minutes = isMinutes(limit);
  const show = (value: number | null) =>
    value === null ? t('protection.noLimit') : minutes ? t('protection.minutes', { count: value }) : formatMoney(value, currency, locale);
  const label = t(`protection.keys.${limit.key}`);

  const run = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await work();
      toast.success(done);
      setEntry('');
    } catch (error) {
      toast.error(messageForError(error));
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = parseEntry(entry, minutes);
    if (value === null) return toast.error(t('protection.invalidValue'));
    void run(() => actions.set(limit.key, value), t('protection.saved'));
  };

  return (
    <section className="card protection__limit" aria-label={label} data-limit={limit.key}>
      <h3 className="card__title">{label}</h3>
      <dl className="details">
        <div className="details__row">
          <dt>{t('protection.current')}</dt>
          <dd data-testid={`limit-value-${limit.key}`}>{show(limit.value)}</dd>
        </div>
        {limit.value !== null ? (
          <div className="details__row">
            <dt>{t('protection.used')}</dt>
            <dd>{minutes ? t('protection.minutes', { count: limit.used }) : formatMoney(limit.used, currency, locale)}</dd>
          </div>
        ) : null}
        {limit.resetsAt ? (
          <div className="details__row">
            <dt>{t('protection.resets')}</dt>
            <dd>{formatDateTime(limit.resetsAt, i18n.language)}</dd>
          </div>
        ) : null}
      </dl>
      {limit.pending ? (
        <div className="notice" role="status">
          <p>
            {t('protection.pending', {
              value: show(limit.pending.value),
              at: formatDateTime(limit.pending.confirmableAt, i18n.language),
            })}
          </p>
          <Button variant="secondary" disabled={busy} onClick={() => void run(() => actions.confirm(limit.key), t('protection.confirmed'))}>
            {t('protection.confirmRaise')}
          </Button>
        </div>
      ) : null}
      <form className="protection__form" onSubmit={submit}>
        <TextField
          label={minutes ? t('protection.newMinutes') : t('protection.newAmount')}
          inputMode="decimal"
          value={entry}
          onChange={(event) => setEntry(event.target.value)}
        />
        <Button type="submit" disabled={busy || !entry}>
          {t('common.save')}
        </Button>
        {limit.value !== null ? (
          <Button variant="secondary" disabled={busy} onClick={() => void run(() => actions.set(limit.key, null), t('protection.saved'))}>
            {t('protection.remove')}
          </Button>
        ) : null}
      </form>
    </section>
  );
}
