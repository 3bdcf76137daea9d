/**
 * The lobby in the query cache: one snapshot (the groups, and per machine and brand the values the
 * notification channel pushes), kept until the page asks again; pushes write into it
 * (lobby-live.ts). TanStack Query's structural sharing keeps the objects a refreshed snapshot did
 * not change, so a refresh re-renders only the cards it changed.
 */
import type { BrandWithMachines, MachineNotification, MachineStatus } from '@reel/protocol/client';
import { useQuery } from '@tanstack/react-query';
import { getSettings } from '@/config/runtime-settings';
import { fetchLobby } from './get-lobby';

export interface LobbySnapshot {
  groups: BrandWithMachines[];
  /** Live status per machine id; cards select their own entry only. */
  statuses: Record<number, MachineStatus>;
  hot: Record<number, boolean>;
  /** Players in each machine's queue (issue 29). */
  queues: Record<number, number>;
  jackpots: Record<number, string>;
}

export const lobbyQueryKey = ['lobby'] as const;

function snapshotOf(groups: BrandWithMachines[]): LobbySnapshot {
  const statuses: Record<number, MachineStatus> = {};
  const hot: Record<number, boolean> = {};
  const queues: Record<number, number> = {};
  const jackpots: Record<number, string> = {};
  for (const group of groups) {
    jackpots[group.brand.id] = group.brand.jackpot;
    for (const machine of group.machines) {
      statuses[machine.id] = machine.status;
      hot[machine.id] = machine.hot;
      queues[machine.id] = machine.queue ?? 0;
    }
  }
  return { groups, statuses, hot, queues, jackpots };
}

/** The snapshot with machine pushes applied on top (a new object; the old one stays as it was). */
export function withPushes(snapshot: LobbySnapshot, updates: Iterable<MachineNotification>): LobbySnapshot {
  const statuses = { ...snapshot.statuses };
  const hot = { ...snapshot.hot };
  const queues = { ...snapshot.queues };
  for (const update of updates) {
    statuses[update.id] = update.status;
    if (typeof update.hot === 'boolean') hot[update.id] = update.hot;
    if (typeof update.queue === 'number') queues[update.id] = update.queue;
  }
  return { ...snapshot, statuses, hot, queues };
}

/**
 * Pushes that arrive while a snapshot is in flight. The server may have read the snapshot before
 * the change they announce (a player leaving a machine just before the lobby loads), so they are
 * applied again on top of it; pushes come in order, so the last one per machine is the newest.
 */
let pushedDuringLoad: Map<number, MachineNotification> | null = null;

export function notePushDuringLoad(update: MachineNotification): void {
  pushedDuringLoad?.set(update.id, update);
}

async function loadSnapshot(): Promise<LobbySnapshot> {
  const pushed = new Map<number, MachineNotification>();
  pushedDuringLoad = pushed;
  try {
    const snapshot = snapshotOf(await fetchLobby(getSettings()));
    return pushed.size ? withPushes(snapshot, pushed.values()) : snapshot;
  } finally {
    if (pushedDuringLoad === pushed) pushedDuringLoad = null;
  }
}

/**
 * Fresh until asked again: the page asks on each visit (loadLobby), UPDATE_LOBBY and a reconnect
 * without replay ask meanwhile, and pushes keep it current in between; so mounting a card (the
 * grid is virtual) never fetches, and a lobby left for a game is still there to show at once.
 */
export const lobbyQuery = {
  queryKey: lobbyQueryKey,
  queryFn: loadSnapshot,
  staleTime: Infinity,
  gcTime: Infinity,
} as const;

/** A part of the lobby; the component re-renders only when that part changes. */
export function useLobbySelect<T>(select: (snapshot: LobbySnapshot) => T) {
  return useQuery({ ...lobbyQuery, select });
}
