import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api-client';
import { translateCode } from '@/lib/i18n';

interface ReasonDialogProps {
  title: string;
  /** The action's label on its confirm button. */
  confirmLabel: string;
  danger?: boolean;
  /** Fields of the action itself (an amount, a new PIN), above the reason. */
  children?: ReactNode;
  /** Checks the action's own fields; a text is shown and nothing is sent. */
  validate?: () => string | null;
  onConfirm: (reason: string) => Promise<void>;
  onClose: () => void;
}

/** The server's refusal in the console's language, from the catalogue code. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return translateCode(error.code, error.params, error.message);
  return translateCode(undefined);
}

/**
 * Every console action asks why: the reason goes into the audit trail with the action. The dialog
 * stays open with the server's refusal (a catalogue text) until the action succeeds.
 */
export function ReasonDialog({ title, confirmLabel, danger, children, validate, onConfirm, onClose }: ReasonDialogProps) {
  const { t } = useTranslation('admin');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = validate?.() ?? (reason.trim() ? null : t('common.reasonRequired'));
    if (invalid) return setError(invalid);
    setBusy(true);
    setError(null);
    try {
      await onConfirm(reason.trim());
      onClose();
    } catch (failure) {
      setError(errorText(failure));
      setBusy(false);
    }
  }

  return (
    <Dialog open title={title} onClose={onClose} closeLabel={t('common.close')}>
      <form className="admin-form" onSubmit={(event) => void submit(event)} noValidate>
        {children}
        <TextField label={t('common.reason')} value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} autoFocus />
        <FormAlert>{error}</FormAlert>
        <div className="admin-form__actions">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant={danger ? 'danger' : 'primary'} busy={busy}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
