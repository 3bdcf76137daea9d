import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { paths } from '@/config/paths';
import { messageForError } from '@/lib/auth';
import { dismissToast, toast, upsertToast } from '@/lib/toast-store';
import { leaveQueue } from '../api/queue-api';
import { followQueue, setQueueEntry, useQueueStore } from '../queue-store';
import { blinkTitle, notifyBrowser, playChime } from './ready-alerts';

const READY_TOAST = 'queue-ready';

/** Whole seconds left until `untilMs`, counted down on this page's clock (re-rendered 4 times a second). */
function useSecondsLeft(untilMs: number | null): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (untilMs === null) return;
    const timer = setInterval(() => setTick((tick) => tick + 1), 250);
    return () => clearInterval(timer);
  }, [untilMs]);
  return untilMs === null ? 0 : Math.max(0, Math.ceil((untilMs - Date.now()) / 1000));
}

/**
 * The ready check, on every signed-in screen: the machine is free and held for the player. Accept
 * opens the game (the join takes the held seat); Pass, or no answer, gives the turn to the next.
 * While it waits: a toast, a chime, a browser notification when allowed, and the title blinking.
 */
export function QueueReadyCheck() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const entry = useQueueStore((state) => state.entry);
  const readyUntilMs = useQueueStore((state) => state.readyUntilMs);
  const ended = useQueueStore((state) => state.ended);
  const seconds = useSecondsLeft(readyUntilMs);
  const [accepted, setAccepted] = useState<string | null>(null);
  const ready = entry?.ready && seconds > 0 ? entry : null;
  const onItsGame = ready ? pathname.startsWith(`/game/${ready.machineId}/`) : false;
  const waiting = ready && accepted !== ready.ready?.until && !onItsGame;

  useEffect(followQueue, []);

  // The alerts start once per ready check.
  const until = waiting ? ready.ready?.until : undefined;
  useEffect(() => {
    if (!until || !entry) return;
    const seconds = Math.round((entry.ready?.remainingMs ?? 0) / 1000);
    const text = t('codes.18820', { machine: entry.machineName, seconds });
    upsertToast({ id: READY_TOAST, message: text, variant: 'success', autoHideMs: null });
    playChime();
    notifyBrowser(t('queue.readyTitle'), text);
    const stopBlinking = blinkTitle(t('queue.readyTitle'));
    return () => {
      stopBlinking();
      dismissToast(READY_TOAST);
    };
    // Only a new ready check (its deadline) starts the alerts again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [until]);

  useEffect(() => {
    if (ended?.reason === 'passed') toast.warning(t('codes.18821', { machine: ended.machineName }));
  }, [ended, t]);

  if (!waiting) return null;
  const accept = () => {
    setAccepted(ready.ready?.until ?? null);
    navigate(paths.game(ready.machineId, ready.machineName));
  };
  const pass = () => {
    setAccepted(ready.ready?.until ?? null);
    leaveQueue()
      .then(() => setQueueEntry(null, 'left'))
      .catch((error: unknown) => toast.error(messageForError(error)));
  };
  return (
    <Dialog
      open
      role="alertdialog"
      className="queue-ready"
      title={t('queue.readyTitle')}
      actions={
        <>
          <Button variant="ghost" onClick={pass}>
            {t('queue.pass')}
          </Button>
          <Button variant="primary" onClick={accept}>
            {t('queue.accept')}
          </Button>
        </>
      }
    >
      <p>{t('queue.readyBody', { machine: ready.machineName })}</p>
      <p className="queue-ready__count" aria-live="polite">
        {t('queue.secondsLeft', { count: seconds })}
      </p>
    </Dialog>
  );
}
