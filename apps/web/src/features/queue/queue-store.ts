/**
 * The player's one queue entry as the server last said it: the REST answer at start, then the
 * notification channel's `queue` pushes (the server sends the entry again on every reconnect, with
 * the ready check's time left then). A ready check's deadline is counted from receipt, so the
 * player's clock does not matter.
 */
import type { QueueEndReason, QueueEntry } from '@reel/protocol/client';
import { create } from 'zustand';
import { notificationSocket } from '@/lib/notification-socket';
import { getQueue } from './api/queue-api';

interface QueueState {
  entry: QueueEntry | null;
  /** When the ready check ends on this page's clock (null: no ready check). */
  readyUntilMs: number | null;
  /** The last entry that ended, and why (the page says so once). */
  ended: { reason: QueueEndReason; machineName: string; at: number } | null;
}

export const useQueueStore = create<QueueState>(() => ({ entry: null, readyUntilMs: null, ended: null }));

export function setQueueEntry(entry: QueueEntry | null, reason?: QueueEndReason): void {
  const previous = useQueueStore.getState().entry;
  useQueueStore.setState({
    entry,
    readyUntilMs: entry?.ready ? Date.now() + entry.ready.remainingMs : null,
    ...(entry === null && reason && previous
      ? { ended: { reason, machineName: previous.machineName, at: Date.now() } }
      : {}),
  });
}

let subscribers = 0;
let stop: (() => void) | null = null;

/** Follows the entry while anything that shows it is mounted. */
export function followQueue(): () => void {
  if (subscribers++ === 0) {
    const controller = new AbortController();
    // A push that arrives while the answer is on its way is newer than the answer: it wins.
    let pushed = false;
    getQueue(controller.signal)
      .then((entry) => pushed || setQueueEntry(entry))
      .catch(() => undefined);
    const off = notificationSocket.on('queue', (data) => {
      pushed = true;
      setQueueEntry(data.entry, data.ended);
    });
    stop = () => {
      controller.abort();
      off();
    };
  }
  return () => {
    if (--subscribers === 0) {
      stop?.();
      stop = null;
    }
  };
}
