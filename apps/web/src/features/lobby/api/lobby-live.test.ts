import type { BrandWithMachines } from '@reel/protocol/client';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/lib/query-client';
import { fetchLobby } from './get-lobby';
import { flushMachineUpdates, loadLobby, prefetchLobby, queueMachineUpdate, startLobbyRefresh } from './lobby-live';
import { lobbyQueryKey, type LobbySnapshot } from './lobby-query';

vi.mock('./get-lobby', () => ({ fetchLobby: vi.fn() }));

const lobby = () => queryClient.getQueryData<LobbySnapshot>(lobbyQueryKey);
const lobbyState = () => queryClient.getQueryState(lobbyQueryKey);
vi.mock('@/config/runtime-settings', () => ({ getSettings: () => ({ API_URL: '/api/', SINGLE_LOBBY: false }) }));

function lobbyWith(status: 'playing' | 'available'): BrandWithMachines[] {
  return [
    {
      brand: { id: 1, name: 'Brand', jackpot: '0', machineCount: 1 },
      machines: [{ id: 7, name: 'Machine 7', status, hot: false }],
    } as unknown as BrandWithMachines,
  ];
}

describe('the start-up lobby request', () => {
  beforeEach(() => queryClient.removeQueries({ queryKey: lobbyQueryKey }));

  it('is taken by the first load instead of asking again, and its first pictures start at once', async () => {
    const sources: string[] = [];
    vi.stubGlobal(
      'Image',
      class {
        fetchPriority = '';
        set src(value: string) {
          sources.push(value);
        }
      },
    );
    try {
      vi.mocked(fetchLobby).mockClear();
      const groups = lobbyWith('available');
      groups[0]!.machines[0]!.reservation = true;
      vi.mocked(fetchLobby).mockResolvedValue(groups);
      await prefetchLobby();
      // The all-groups lobby shows the reserved machines first: their pictures, first round.
      expect(sources).toEqual(['/api/machine/7/image?v=0']);
      await loadLobby();
      expect(fetchLobby).toHaveBeenCalledTimes(1);
      expect(lobby()?.statuses[7]).toBe('available');
      // Taken once: the next load asks the server.
      await loadLobby();
      expect(fetchLobby).toHaveBeenCalledTimes(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('fills the cache, so the page renders its cards in its first pass, and the page takes that answer', async () => {
    vi.mocked(fetchLobby).mockClear();
    vi.mocked(fetchLobby).mockResolvedValueOnce(lobbyWith('playing'));
    await prefetchLobby();
    expect(lobbyState()?.status).toBe('success');
    expect(lobby()?.statuses[7]).toBe('playing');
    // A later visit's start-up answer is the newer lobby: the page then takes it without asking again.
    vi.mocked(fetchLobby).mockResolvedValueOnce(lobbyWith('available'));
    await prefetchLobby();
    await loadLobby();
    expect(lobby()?.statuses[7]).toBe('available');
    expect(fetchLobby).toHaveBeenCalledTimes(2);
  });

  it('keeps a status pushed after the start-up answer filled the store when the page then takes that answer', async () => {
    vi.mocked(fetchLobby).mockResolvedValueOnce(lobbyWith('available'));
    await prefetchLobby();
    queueMachineUpdate({ id: 7, status: 'playing', hot: false });
    flushMachineUpdates();
    await loadLobby();
    expect(lobby()?.statuses[7]).toBe('playing');
  });

  it('asks again when the start-up request failed (a token the check then refused)', async () => {
    vi.mocked(fetchLobby).mockClear();
    vi.mocked(fetchLobby).mockRejectedValueOnce(new Error('401')).mockResolvedValueOnce(lobbyWith('playing'));
    await prefetchLobby().catch(() => undefined);
    await loadLobby();
    expect(fetchLobby).toHaveBeenCalledTimes(2);
    expect(lobbyState()?.status).toBe('success');
    expect(lobby()?.statuses[7]).toBe('playing');
  });
});

describe('lobby snapshot and pushed statuses', () => {
  beforeEach(() => queryClient.removeQueries({ queryKey: lobbyQueryKey }));

  it('keeps a status pushed while the snapshot was in flight (the snapshot may predate it)', async () => {
    let answer!: (groups: BrandWithMachines[]) => void;
    vi.mocked(fetchLobby).mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const loading = loadLobby();
    // The player left machine 7: the push arrives before the (older) snapshot says "playing".
    queueMachineUpdate({ id: 7, status: 'available', hot: false });
    flushMachineUpdates();
    answer(lobbyWith('playing'));
    await loading;
    flushMachineUpdates();
    expect(lobby()?.statuses[7]).toBe('available');
  });

  it('takes the snapshot as it is when nothing was pushed during the load', async () => {
    vi.mocked(fetchLobby).mockResolvedValue(lobbyWith('playing'));
    queueMachineUpdate({ id: 7, status: 'available', hot: false });
    flushMachineUpdates();
    await loadLobby();
    flushMachineUpdates();
    expect(lobby()?.statuses[7]).toBe('playing');
  });

  it('UPDATE_LOBBY: reloads the lobby every period while it is open, and stops when closed', async () => {
    vi.useFakeTimers();
    try {
      vi.mocked(fetchLobby).mockClear();
      vi.mocked(fetchLobby).mockResolvedValue(lobbyWith('available'));
      const stop = startLobbyRefresh(10);
      await vi.advanceTimersByTimeAsync(9_999);
      expect(fetchLobby).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(fetchLobby).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(20_000);
      expect(fetchLobby).toHaveBeenCalledTimes(3);
      stop();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(fetchLobby).toHaveBeenCalledTimes(3);
      expect(startLobbyRefresh(0)).toBeTypeOf('function');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the objects a refreshed snapshot did not change, so unchanged cards do not re-render', async () => {
    const two = (name: string): BrandWithMachines[] => [
      {
        brand: { id: 1, name: 'Brand', jackpot: '0', machineCount: 2 },
        machines: [
          { id: 7, name: 'Machine 7', status: 'available', hot: false, bands: [] },
          { id: 8, name, status: 'available', hot: false, bands: [] },
        ],
      } as unknown as BrandWithMachines,
    ];
    vi.mocked(fetchLobby).mockResolvedValue(two('Machine 8'));
    await loadLobby();
    const first = lobby()!.groups;
    vi.mocked(fetchLobby).mockResolvedValue(two('Machine 8'));
    await loadLobby();
    expect(lobby()!.groups[0]).toBe(first[0]);
    vi.mocked(fetchLobby).mockResolvedValue(two('Machine 8 renamed'));
    await loadLobby();
    const [group] = lobby()!.groups;
    expect(group).not.toBe(first[0]);
    expect(group!.machines[0]).toBe(first[0]!.machines[0]);
    expect(group!.machines[1]!.name).toBe('Machine 8 renamed');
  });
});
