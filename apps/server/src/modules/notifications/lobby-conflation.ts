/**
 * Lobby pushes conflated per socket (issue 29): a machine's status (with its queue length) and its
 * watcher count reach a lobby socket at most once per LOBBY_PUSH_INTERVAL_MS. A change that arrives
 * sooner waits, and a later change of the same thing replaces it (the latest state wins); when the
 * interval is up, everything waiting leaves in one write, in stream order. Nothing final is lost:
 * the last state of each thing is always the one that goes out. So the cost of a socket follows
 * the clock (≤ 10 writes a second), not the number of changes on the floor.
 *
 * Messages that are events rather than states (a player's own messages, a jackpot hit) are never
 * conflated; they go at once, after whatever lobby state waits for that socket, so the socket's
 * sequence numbers stay in order (a reconnect's `lastSeq` must not skip a state that waited).
 */
const LOBBY_PUSH_INTERVAL_MS = 100;

// `queue` (the player's own entry) is not a lobby state: it goes at once.
const CONFLATED_EVENTS = new Set(['machine', 'watchers']);

/** The thing a lobby message is the state of (`machine:3`), or null for one that must not be conflated. */
export function conflationKey(event: string, data: unknown): string | null {
  if (!CONFLATED_EVENTS.has(event)) return null;
  const id = (data as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? `${event}:${id}` : null;
}

interface SocketState<E> {
  /** No lobby write to this socket before this time. */
  nextAt: number;
  pending: Map<string, E> | null;
}

export class LobbyConflator<S, E extends { seq: number }> {
  private readonly states = new Map<S, SocketState<E>>();
  /** Sockets with something waiting. */
  private readonly due = new Set<S>();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;

  constructor(
    private readonly write: (socket: S, entries: readonly E[]) => void,
    private readonly intervalMs = LOBBY_PUSH_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A message for `socket`: conflated under `key`, or (key null) sent now behind what waits. */
  offer(socket: S, key: string | null, entry: E): void {
    let state = this.states.get(socket);
    if (!state) this.states.set(socket, (state = { nextAt: 0, pending: null }));
    const now = this.now();
    if (key === null) {
      if (state.pending) this.flush(socket, state, now, entry);
      else this.write(socket, [entry]);
      return;
    }
    if (!state.pending && now >= state.nextAt) {
      state.nextAt = now + this.intervalMs;
      this.write(socket, [entry]);
      return;
    }
    (state.pending ??= new Map()).set(key, entry);
    this.due.add(socket);
    this.schedule(state.nextAt);
  }

  /** The socket closed: nothing more for it. */
  forget(socket: S): void {
    this.states.delete(socket);
    this.due.delete(socket);
  }

  /** Shutdown: everything waiting goes now. */
  flushAll(): void {
    const now = this.now();
    for (const socket of [...this.due]) this.flush(socket, this.states.get(socket)!, now);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
  }

  private flush(socket: S, state: SocketState<E>, now: number, extra?: E): void {
    const entries = state.pending ? [...state.pending.values()].sort((a, b) => a.seq - b.seq) : [];
    if (extra) entries.push(extra);
    state.pending = null;
    state.nextAt = now + this.intervalMs;
    this.due.delete(socket);
    this.write(socket, entries);
  }

  /** One timer for every socket: they fall into step, so one wake-up serves them all. */
  private schedule(at: number): void {
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.onTimer(), Math.max(0, at - this.now()));
    this.timer.unref?.();
  }

  private onTimer(): void {
    this.timer = null;
    this.timerAt = Infinity;
    const now = this.now();
    let next = Infinity;
    for (const socket of [...this.due]) {
      const state = this.states.get(socket)!;
      // 1 ms early is on time: timers fire on whole milliseconds.
      if (state.nextAt <= now + 1) this.flush(socket, state, now);
      else next = Math.min(next, state.nextAt);
    }
    if (next !== Infinity) this.schedule(next);
  }
}
