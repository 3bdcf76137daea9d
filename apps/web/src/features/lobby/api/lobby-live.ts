/**
 * The lobby's life beside its query (lobby-query.ts): the start-up request, the page's loads, the
 * notification channel's pushes written into the cached snapshot with setQueryData, and the
 * periodic refresh (UPDATE_LOBBY).
 */
import type { BrandWithMachines, MachineNotification, MachineStatus } from '@reel/protocol/client';
import { getSettings } from '@/config/runtime-settings';
import { notificationSocket } from '@/lib/notification-socket';
import { queryClient } from '@/lib/query-client';
import { preloadFirstPictures } from '../first-pictures';
import { lobbyQuery, lobbyQueryKey, notePushDuringLoad, withPushes, type LobbySnapshot } from './lobby-query';

/** A start-up answer older than this is not taken: the lobby asks afresh. */
const PREFETCH_MAX_AGE_MS = 10_000;
/** When the start-up request was made; the first load after it takes its answer, once. */
let prefetchedAt: number | null = null;

/**
 * Asks for the lobby at start-up, while the token is still being checked (the route's
 * preloadData), and starts its first pictures once the answer is in. The answer lands in the
 * cache, so the page's first render has its cards: one render and paint, not two.
 */
export function prefetchLobby(): Promise<BrandWithMachines[]> {
  const settings = getSettings();
  prefetchedAt = Date.now();
  return queryClient.fetchQuery({ ...lobbyQuery, staleTime: 0 }).then(({ groups }) => {
    preloadFirstPictures(groups, settings, window.location.pathname);
    return groups;
  });
}

/**
 * The page's load: the start-up answer once, if fresh (still in flight, it is waited for); else,
 * or when the start-up request failed (a token the check then refused), the server is asked. A
 * failure is the query's error state, which the page shows with its Retry.
 */
export async function loadLobby(): Promise<void> {
  const takePrefetched = prefetchedAt !== null && Date.now() - prefetchedAt <= PREFETCH_MAX_AGE_MS;
  prefetchedAt = null;
  await queryClient.fetchQuery({ ...lobbyQuery, staleTime: takePrefetched ? PREFETCH_MAX_AGE_MS : 0 }).catch(() => undefined);
}

/**
 * Pushed machine changes are buffered and written once per animation frame: 200 updates a second
 * become at most 60 cache writes, and only the cards whose status changed re-render.
 */
const pending = new Map<number, MachineNotification>();
let scheduled = false;

const schedule: (flush: () => void) => void =
  typeof requestAnimationFrame === 'function'
    ? (flush) => requestAnimationFrame(flush)
    : (flush) => setTimeout(flush, 16);

export function flushMachineUpdates(): void {
  scheduled = false;
  if (pending.size === 0) return;
  const updates = [...pending.values()];
  pending.clear();
  queryClient.setQueryData<LobbySnapshot>(lobbyQueryKey, (snapshot) => snapshot && withPushes(snapshot, updates));
}

export function queueMachineUpdate(update: MachineNotification): void {
  notePushDuringLoad(update);
  pending.set(update.id, update);
  if (!scheduled) {
    scheduled = true;
    schedule(flushMachineUpdates);
  }
}

let subscribers = 0;
let unsubscribe: (() => void) | null = null;

/**
 * `UPDATE_LOBBY` (seconds; 0 turns it off): a periodic snapshot beside the pushes, so a lobby left
 * open heals whatever a push could not say (jackpot lists, a machine added by the operator). A tab
 * in the background skips its turn; the pushes keep the statuses current meanwhile.
 */
export function startLobbyRefresh(periodS: number = getSettings().UPDATE_LOBBY): () => void {
  if (!(periodS > 0)) return () => undefined;
  const timer = setInterval(() => {
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
    void loadLobby();
  }, periodS * 1000);
  return () => clearInterval(timer);
}

/** Subscribes the lobby to the notification channel, and refreshes it, while any lobby screen is mounted. */
export function subscribeLobby(): () => void {
  if (subscribers++ === 0) {
    const offMachine = notificationSocket.on('machine', queueMachineUpdate);
    const offJackpot = notificationSocket.on('jackpot', (data) =>
      queryClient.setQueryData<LobbySnapshot>(
        lobbyQueryKey,
        (snapshot) => snapshot && { ...snapshot, jackpots: { ...snapshot.jackpots, [data.brandId]: data.jackpot } },
      ),
    );
    // A reconnect that could not replay what was missed asks for a fresh snapshot.
    const offHello = notificationSocket.on('hello', (data) => {
      if (data.snapshot) void loadLobby();
    });
    const stopRefresh = startLobbyRefresh();
    unsubscribe = () => {
      stopRefresh();
      offMachine();
      offJackpot();
      offHello();
    };
  }
  return () => {
    if (--subscribers === 0) {
      unsubscribe?.();
      unsubscribe = null;
    }
  };
}

export function countStatuses(
  ids: readonly number[],
  statuses: Record<number, MachineStatus>,
): Record<MachineStatus, number> {
  const counts: Record<MachineStatus, number> = {
    playing: 0,
    available: 0,
    waiting: 0,
    reserved: 0,
    not_available: 0,
  };
  for (const id of ids) {
    const status = statuses[id];
    if (status) counts[status] += 1;
  }
  return counts;
}
