import { describe, expect, it, vi, afterEach } from 'vitest';
import { conflationKey, LobbyBatch } from './lobby-conflation.js';

interface Entry {
  seq: number;
  event: string;
  data: { id?: number; status?: string; count?: number };
}
afterEach(() => vi.useRealTimers());

function setup() {
  vi.useFakeTimers({ now: 1_000_000 });
  const batches: { at: number; entries: Entry[] }[] = [];
  const lobby = new LobbyBatch<Entry>((entries) => batches.push({ at: Date.now(), entries: [...entries] }));
  let seq = 0;
  const offer = (event: string, data: Entry['data']) => {
    const entry = { seq: ++seq, event, data };
    lobby.offer(conflationKey(event, data)!, entry);
    return entry;
  };
  return { lobby, batches, offer };
}

describe('lobby pushes conflated, one batch for the whole lobby', () => {
  it('sends the first change at once, then at most one batch per 100 ms with the latest state of each thing', () => {
    const { batches, offer } = setup();
    offer('machine', { id: 1, status: 'playing' });
    expect(batches).toHaveLength(1);
    // 50 changes within the next 100 ms over two machines and a watcher count.
    for (let i = 0; i < 50; i++) {
      vi.advanceTimersByTime(1);
      offer('machine', { id: 1 + (i % 2), status: i % 3 ? 'playing' : 'available' });
      offer('watchers', { id: 1, count: i });
    }
    expect(batches).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(batches).toHaveLength(2);
    const second = batches[1]!;
    expect(second.at - batches[0]!.at).toBeGreaterThanOrEqual(100);
    // The latest of each, in stream order: machine 1 (i = 48), machine 2 (i = 49), watchers of 1 (49).
    expect(second.entries.map((e) => [e.event, e.data])).toEqual([
      ['machine', { id: 1, status: 'available' }],
      ['machine', { id: 2, status: 'playing' }],
      ['watchers', { id: 1, count: 49 }],
    ]);
    expect(second.entries.map((e) => e.seq)).toEqual([...second.entries.map((e) => e.seq)].sort((x, y) => x - y));
    // Quiet afterwards: nothing more leaves.
    vi.advanceTimersByTime(1000);
    expect(batches).toHaveLength(2);
  });

  it('keeps the final state: the last change before a quiet spell always goes out', () => {
    const { batches, offer } = setup();
    offer('machine', { id: 3, status: 'playing' });
    offer('machine', { id: 3, status: 'available' });
    vi.advanceTimersByTime(150);
    expect(batches.at(-1)!.entries.at(-1)!.data).toEqual({ id: 3, status: 'available' });
  });

  it('says what waits, in stream order, and flush sends it at once and starts a new interval', () => {
    const { lobby, batches, offer } = setup();
    offer('machine', { id: 1, status: 'playing' });
    const first = offer('machine', { id: 2, status: 'playing' });
    const second = offer('machine', { id: 1, status: 'available' });
    expect(lobby.waiting()).toEqual([first, second]);
    lobby.flush();
    expect(batches.map((b) => b.entries)).toEqual([[expect.objectContaining({ seq: 1 })], [first, second]]);
    expect(lobby.waiting()).toEqual([]);
    // The flush counts as a batch: the next change within 100 ms waits for the next one.
    offer('machine', { id: 2, status: 'available' });
    expect(batches).toHaveLength(2);
    vi.advanceTimersByTime(100);
    expect(batches).toHaveLength(3);
  });

  it('does not conflate what is not a lobby state', () => {
    expect(conflationKey('machine', { id: 4 })).toBe('machine:4');
    expect(conflationKey('watchers', { id: 4, count: 2 })).toBe('watchers:4');
    expect(conflationKey('queue', { id: 4 })).toBeNull();
    expect(conflationKey('jackpot', { id: 4 })).toBeNull();
  });
});
