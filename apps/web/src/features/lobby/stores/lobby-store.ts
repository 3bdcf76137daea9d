import type { BrandWithMachines, MachineNotification, MachineStatus } from '@reel/protocol/client';
import { create } from 'zustand';
import { getSettings } from '@/config/runtime-settings';
import { notificationSocket } from '@/lib/notification-socket';
import { fetchLobby } from '../api/get-lobby';
import { preloadFirstPictures } from '../first-pictures';

interface LobbyState {
  phase: 'idle' | 'loading' | 'ready' | 'error';
  error: unknown;
  groups: BrandWithMachines[];
  /** Live status per machine id; cards subscribe to their own entry only. */
  statuses: Record<number, MachineStatus>;
  hot: Record<number, boolean>;
  jackpots: Record<number, string>;
}

export const useLobbyStore = create<LobbyState>(() => ({
  phase: 'idle',
  error: null,
  groups: [],
  statuses: {},
  hot: {},
  jackpots: {},
}));

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function sameFields<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => sameValue(a[key], b[key]));
}

/**
 * A refreshed snapshot keeps the objects (and a group's machine list) it already had where nothing
 * changed, so the periodic refresh re-renders only what it changed, not every card on screen.
 */
function reuseUnchanged(previous: BrandWithMachines[], next: BrandWithMachines[]): BrandWithMachines[] {
  if (previous.length === 0) return next;
  const machinesById = new Map(previous.flatMap((group) => group.machines.map((machine) => [machine.id, machine] as const)));
  const groupsById = new Map(previous.map((group) => [group.brand.id, group] as const));
  return next.map((group) => {
    const before = groupsById.get(group.brand.id);
    const machines = group.machines.map((machine) => {
      const old = machinesById.get(machine.id);
      return old && sameFields(old, machine) ? old : machine;
    });
    const sameMachines = before !== undefined && before.machines.length === machines.length && machines.every((machine, index) => machine === before.machines[index]);
    const brand = before && sameFields(before.brand, group.brand) ? before.brand : group.brand;
    if (sameMachines && brand === before.brand) return before;
    return { brand, machines: sameMachines ? before.machines : machines };
  });
}

/** The answer setLobby took last: the start-up answer reaches it twice (prefetchLobby, then the page's first loadLobby). */
let applied: BrandWithMachines[] | null = null;

function setLobby(fresh: BrandWithMachines[]): void {
  // Taken already: the store has it, and pushes since then are newer than it.
  if (fresh === applied && useLobbyStore.getState().phase === 'ready') return;
  applied = fresh;
  const groups = reuseUnchanged(useLobbyStore.getState().groups, fresh);
  const statuses: Record<number, MachineStatus> = {};
  const hot: Record<number, boolean> = {};
  const jackpots: Record<number, string> = {};
  for (const group of groups) {
    jackpots[group.brand.id] = group.brand.jackpot;
    for (const machine of group.machines) {
      statuses[machine.id] = machine.status;
      hot[machine.id] = machine.hot;
    }
  }
  useLobbyStore.setState({ phase: 'ready', error: null, groups, statuses, hot, jackpots });
}

/**
 * Pushes that arrive while a snapshot is in flight. The server may have read the snapshot before
 * the change they announce (a player leaving a machine just before the lobby loads), so they are
 * applied again on top of it; pushes come in order, so the last one per machine is the newest.
 */
let pushedDuringLoad: Map<number, MachineNotification> | null = null;

/** A start-up answer older than this is not taken: the lobby asks afresh. */
const PREFETCH_MAX_AGE_MS = 10_000;
let prefetched: { at: number; answer: Promise<BrandWithMachines[]> } | null = null;

/**
 * Asks for the lobby at start-up, while the token is still being checked (the route's
 * preloadData), starts its first pictures and fills the store once the answer is in; the first
 * loadLobby takes this answer instead of asking again.
 */
export function prefetchLobby(): Promise<BrandWithMachines[]> {
  const settings = getSettings();
  const answer = fetchLobby(settings);
  prefetched = { at: Date.now(), answer };
  return answer.then((groups) => {
    preloadFirstPictures(groups, settings, window.location.pathname);
    // In the store already, the page's first render has its cards: one render and paint, not two.
    if (useLobbyStore.getState().phase === 'idle') setLobby(groups);
    return groups;
  });
}

/** The start-up answer once, if fresh; a failed one (a token the check then refused) asks again. */
function takePrefetched(): Promise<BrandWithMachines[]> | null {
  const early = prefetched;
  prefetched = null;
  if (!early || Date.now() - early.at > PREFETCH_MAX_AGE_MS) return null;
  return early.answer.catch(() => fetchLobby(getSettings()));
}

export async function loadLobby(): Promise<void> {
  if (useLobbyStore.getState().phase !== 'ready') useLobbyStore.setState({ phase: 'loading' });
  const pushed = new Map<number, MachineNotification>();
  pushedDuringLoad = pushed;
  try {
    setLobby(await (takePrefetched() ?? fetchLobby(getSettings())));
    for (const update of pushed.values()) queueMachineUpdate(update);
  } catch (error) {
    useLobbyStore.setState({ phase: 'error', error });
  } finally {
    if (pushedDuringLoad === pushed) pushedDuringLoad = null;
  }
}

/**
 * Pushed machine changes are buffered and applied once per animation frame: 200 updates a second
 * become at most 60 store writes, and only the cards whose status changed re-render.
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
  const { statuses, hot } = useLobbyStore.getState();
  const nextStatuses = { ...statuses };
  const nextHot = { ...hot };
  for (const update of pending.values()) {
    nextStatuses[update.id] = update.status;
    if (typeof update.hot === 'boolean') nextHot[update.id] = update.hot;
  }
  pending.clear();
  useLobbyStore.setState({ statuses: nextStatuses, hot: nextHot });
}

export function queueMachineUpdate(update: MachineNotification): void {
  pushedDuringLoad?.set(update.id, update);
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
      useLobbyStore.setState((state) => ({ jackpots: { ...state.jackpots, [data.brandId]: data.jackpot } })),
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
