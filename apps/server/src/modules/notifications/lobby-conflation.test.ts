import { describe, expect, it, vi, afterEach } from 'vitest';
import { conflationKey, LobbyConflator } from './lobby-conflation.js';

interface Entry {
  seq: number;
  event: string;
  data: { id?: number; status?: string; count?: number };
}
afterEach(() => vi.useRealTimers());

function setup() {
  vi.useFakeTimers({ now: 1_000_000 });
  const writes: { socket: string; at: number; entries: Entry[] }[] = [];
  const conflator = new LobbyConflator<string, Entry>((socket, entries) => writes.push({ socket, at: Date.now(), entries: [...entries] }));
  let seq = 0;
  const offer = (socket: string, event: string, data: Entry['data']) => {
    const entry = { seq: ++seq, event, data };
    conflator.offer(socket, conflationKey(event, data), entry);
    return entry;
  };
  return { conflator, writes, offer };
}

describe('lobby pushes conflated per socket', () => {
  it('sends the first change at once, then at most one write per 100 ms with the latest state of each thing', () => {
    const { writes, offer } = setup();
    offer('a', 'machine', { id: 1, status: 'playing' });
    expect(writes).toHaveLength(1);
    // 50 changes within the next 100 ms over two machines and a watcher count.
    for (let i = 0; i < 50; i++) {
      vi.advanceTimersByTime(1);
      offer('a', 'machine', { id: 1 + (i % 2), status: i % 3 ? 'playing' : 'available' });
      offer('a', 'watchers', { id: 1, count: i });
    }
    expect(writes).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(writes).toHaveLength(2);
    const second = writes[1]!;
    expect(second.at - writes[0]!.at).toBeGreaterThanOrEqual(100);
    // The latest of each: machine 1 (i = 48), machine 2 (i = 49), watchers of 1 (49), in stream order.
    expect(second.entries.map((e) => [e.event, e.data])).toEqual([
      ['machine', { id: 1, status: 'available' }],
      ['machine', { id: 2, status: 'playing' }],
      ['watchers', { id: 1, count: 49 }],
    ]);
    expect(second.entries.map((e) => e.seq)).toEqual([...second.entries.map((e) => e.seq)].sort((x, y) => x - y));
    // Quiet afterwards: nothing more is written.
    vi.advanceTimersByTime(1000);
    expect(writes).toHaveLength(2);
  });

  it('keeps the final state: the last change before a quiet spell always goes out', () => {
    const { writes, offer } = setup();
    offer('a', 'queue', { id: 3, count: undefined });
    offer('a', 'machine', { id: 3, status: 'playing' });
    offer('a', 'machine', { id: 3, status: 'available' });
    vi.advanceTimersByTime(150);
    expect(writes.at(-1)!.entries.at(-1)!.data).toEqual({ id: 3, status: 'available' });
  });

  it('an event that is not a state (a player message, a jackpot) goes at once, behind what waits, in order', () => {
    const { writes, offer } = setup();
    offer('a', 'machine', { id: 1, status: 'playing' });
    const waiting = offer('a', 'machine', { id: 1, status: 'available' });
    const balance = offer('a', 'balance', {});
    expect(writes).toHaveLength(2);
    expect(writes[1]!.entries).toEqual([waiting, balance]);
    vi.advanceTimersByTime(500);
    expect(writes).toHaveLength(2);
  });

  it('each socket keeps its own pace, and a closed socket is forgotten', () => {
    const { conflator, writes, offer } = setup();
    offer('a', 'machine', { id: 1, status: 'playing' });
    vi.advanceTimersByTime(60);
    offer('b', 'machine', { id: 1, status: 'playing' });
    offer('a', 'machine', { id: 1, status: 'available' });
    offer('b', 'machine', { id: 1, status: 'available' });
    conflator.forget('b');
    vi.advanceTimersByTime(40);
    expect(writes.map((w) => w.socket)).toEqual(['a', 'b', 'a']);
    vi.advanceTimersByTime(200);
    expect(writes.map((w) => w.socket)).toEqual(['a', 'b', 'a']);
  });
});
