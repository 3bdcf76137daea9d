import { useState } from 'react';
import { messageForError } from './auth';
import { toast } from './toast-store';

/** A button's action that may fail: `busy` while it runs, a failure shown as a toast with the server's message. */
export function useBusyAction() {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      toast.error(messageForError(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
