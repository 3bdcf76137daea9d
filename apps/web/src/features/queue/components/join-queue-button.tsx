import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast-store';
import { useBusyAction } from '@/lib/use-busy-action';
import { joinQueue, leaveQueue } from '../api/queue-api';
import { followQueue, setQueueEntry, useQueueStore } from '../queue-store';
import { askNotificationPermission } from './ready-alerts';

/**
 * "Join queue" for a Playing or Waiting machine (the lobby card; the watch page mounts it too):
 * once in its line, the player's place and estimated wait, and a way out.
 */
export function JoinQueueButton({ machineId, machineName }: { machineId: number; machineName: string }) {
  const { t } = useTranslation();
  const entry = useQueueStore((state) => (state.entry?.machineId === machineId ? state.entry : null));
  const { busy, run } = useBusyAction();
  useEffect(followQueue, []);

  const join = () =>
    run(async () => {
      askNotificationPermission();
      const joined = await joinQueue(machineId);
      setQueueEntry(joined);
      if (joined) toast.info(t('queue.joined', { position: joined.position, machine: machineName }));
    });
  const leave = () =>
    run(async () => {
      await leaveQueue();
      setQueueEntry(null, 'left');
    });

  if (!entry) {
    return (
      <Button variant="secondary" className="queue-join" busy={busy} onClick={() => void join()}>
        {t('queue.join')}
        <span className="visually-hidden"> {machineName}</span>
      </Button>
    );
  }
  return (
    <div className="queue-place" data-queue-position={entry.position}>
      <span className="queue-place__text" role="status">
        {t('queue.place', { position: entry.position, length: entry.length })}
        {entry.ready ? null : ` · ${t('queue.eta', { minutes: Math.max(1, Math.round(entry.etaS / 60)) })}`}
      </span>
      <Button variant="ghost" className="queue-leave" busy={busy} onClick={() => void leave()}>
        {t('queue.leave')}
      </Button>
    </div>
  );
}
