import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { errorText } from './reason-dialog';

/**
 * One line of text and its button (a note, a chat reply): `onSend` gets the trimmed text; the
 * field empties when it resolves, and a refusal shows under the form with the text kept.
 */
export function SendForm({ label, submit, onSend }: { label: string; submit: string; onSend: (text: string) => Promise<void> }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await onSend(text.trim());
      setText('');
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <form className="admin-toolbar" onSubmit={(event) => void send(event)}>
        <TextField label={label} value={text} maxLength={2000} onChange={(event) => setText(event.target.value)} />
        <Button type="submit" busy={busy}>
          {submit}
        </Button>
      </form>
      <FormAlert>{error}</FormAlert>
    </>
  );
}
