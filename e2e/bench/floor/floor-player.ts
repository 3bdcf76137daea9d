/**
 * One player of the floor bench, using the product as the web app does: signs in over REST, reads
 * the lobby, keeps a notification socket, joins its machine over the game socket, cashes in, spins
 * every SPIN_EVERY_MS and cashes out at the end. A game socket that drops (its server was killed) is
 * opened again through HAProxy and joined again (resumed), and a spin left without an answer is sent
 * again with the same command id, as the web app's game channel does; the server runs it at most once.
 *
 * Per spin it keeps: when it was sent, when the machine view said the game started (accepted) and
 * when its result (`cycle`) came. The game's own reel time is fixed by the cabinet, so the server's
 * share of a spin is the result's wait beyond it.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { Code, PROTOCOL_VERSION, isBusyCabinetState } from '@reel/protocol';
import { drainSocket } from '../../../apps/server/bench/cluster-clients.js';
import type { FloorSeat } from './floor-seed.js';

export const SPIN_EVERY_MS = 2_500;
const ANSWER_TIMEOUT_MS = 30_000;

type Message = { event: string; data: Record<string, unknown> };

interface SpinSample {
  commandId: string;
  sentAt: number;
  acceptedAt?: number;
  resultAt?: number;
  /** Sent again after a reconnect (the first send's answer never came). */
  resent: boolean;
  /** The server's refusal (e.g. 40900-range busy while the machine plays its free spins). */
  refusedCode?: number;
}

export class FloorPlayer {
  readonly spins: SpinSample[] = [];
  /** When each game of the machine reached the player (free spins too). */
  readonly cyclesAt: number[] = [];
  readonly errors = new Map<number, number>();
  reconnects = 0;
  /** Spin times passed over because the machine was busy (its free spins), as the web app's Spin button is then disabled. */
  skipped = 0;
  private cabinetState = 'idle';
  cashedInCents = 0;
  cashedOutCents: number | null = null;
  /**
   * The session was held as a malfunction (its meters off the records): it was paid from the records
   * then, and its cash out is answered by the malfunction's notice (the amount paid), not `cashedOut`.
   */
  held = false;
  private token = '';
  private socket: WebSocket | null = null;
  private notifications: { destroy(): void } | null = null;
  private joinedResolve: (() => void) | null = null;
  private pending: SpinSample | null = null;
  private waiters = new Set<(m: Message) => void>();
  /** Command ids of the spins whose result came. */
  readonly results = new Set<string>();
  private running = false;
  /** The game socket is open and joined. */
  private joined = false;
  private closing = false;

  constructor(
    private readonly baseUrl: string,
    readonly seat: FloorSeat,
  ) {}

  /** Sign-in, lobby, notification socket, join and cash in. */
  async enter(cashInCents: number): Promise<void> {
    // A server HAProxy took out for a moment (its health check is slow on a loaded machine) answers
    // 502: the web app tries again, so does this.
    await retry(() => this.signIn());
    await retry(() => this.connect());
    await this.cashIn(cashInCents);
  }

  private async signIn(): Promise<void> {
    const login = await fetch(`${this.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: this.seat.username, password: this.seat.password }),
    });
    const body = (await login.json()) as { token?: string; code?: number };
    if (!body.token) throw new Error(`${this.seat.username}: sign-in refused (${body.code})`);
    this.token = body.token;
    const lobby = await fetch(`${this.baseUrl}/api/machine/all`, { headers: { authorization: `Bearer ${this.token}` } });
    if (!lobby.ok) throw new Error(`${this.seat.username}: lobby ${lobby.status}`);
    await lobby.arrayBuffer();
    const { hostname, port } = new URL(this.baseUrl);
    this.notifications?.destroy();
    this.notifications = await drainSocket(hostname, Number(port), `/ws/notifications?token=${this.token}`);
  }

  private async cashIn(cashInCents: number): Promise<void> {
    const cashedIn = this.next((m) => m.event === 'cashedIn' || m.event === 'error', 'cashedIn');
    this.send('cashin', { amountCents: cashInCents, idempotencyKey: randomUUID() });
    const answer = await cashedIn;
    if (answer.event === 'error') throw new Error(`${this.seat.username}: cash in refused: ${JSON.stringify(answer.data)}`);
    this.cashedInCents = cashInCents;
  }

  /** Spins every SPIN_EVERY_MS (the first after `offsetMs`) until stop(). */
  async play(offsetMs: number): Promise<void> {
    this.running = true;
    await sleep(offsetMs);
    let due = performance.now();
    while (this.running) {
      if (this.cabinetState !== 'idle') {
        this.skipped++;
        due += SPIN_EVERY_MS;
        await sleep(Math.max(0, due - performance.now()));
        continue;
      }
      const spin: SpinSample = { commandId: randomUUID(), sentAt: Date.now(), resent: false };
      this.spins.push(spin);
      await this.runSpin(spin);
      due += SPIN_EVERY_MS;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      else due = performance.now();
    }
  }

  /** Ends play, cashes out, leaves. */
  async leave(): Promise<void> {
    this.running = false;
    while (this.pending) await sleep(50);
    // A machine playing its free spins refuses a cash out (busy), and the web app's Cash out waits
    // for it to rest (ten free spins take ~25 s); a refusal after that is tried again. A machine in
    // a fault (a held session's) is not waited for: its cash out answers at once.
    for (let waited = 0; isBusyCabinetState(this.cabinetState) && waited < 90_000; waited += 100) await sleep(100);
    for (let attempt = 1; ; attempt++) {
      // Its answer waits for every game before it to be recorded: on a starved machine that is long.
      // Sent on a joined socket only, and again after a rejoin (a failover closes the socket with 1012).
      if (!this.joined) await this.next((m) => m.event === 'reconnected', 'a rejoin', 3 * ANSWER_TIMEOUT_MS);
      const out = this.next(
        (m) => m.event === 'cashedOut' || m.event === 'error' || m.event === 'reconnected' || isMalfunction(m),
        'cashedOut',
        3 * ANSWER_TIMEOUT_MS,
      );
      this.send('cashout', {});
      const m = await out;
      if (m.event === 'reconnected') continue;
      if (m.event === 'cashedOut') {
        this.cashedOutCents = Number(m.data.amountCents);
        break;
      }
      if (isMalfunction(m)) {
        this.held = true;
        this.cashedOutCents = Number((m.data.params as { amount?: unknown } | undefined)?.amount);
        break;
      }
      this.noteError(m);
      if (attempt === 30) throw new Error(`${this.seat.username}: cash out refused: ${JSON.stringify(m.data)}`);
      await sleep(1_000);
    }
    this.closing = true;
    this.send('leave', {});
    this.socket?.close();
    this.notifications?.destroy();
  }

  /** Closes everything at once (a failed run). */
  abort(): void {
    this.running = false;
    this.closing = true;
    this.socket?.terminate();
    this.notifications?.destroy();
  }

  private async runSpin(spin: SpinSample): Promise<void> {
    this.pending = spin;
    try {
      for (let attempt = 0; attempt < 5 && this.pending; attempt++) {
        // Its result may have come while the socket was down (then the server has it already).
        if (this.results.has(spin.commandId)) break;
        // A spin sent while the socket is down would be lost on the way: after the rejoin.
        if (!this.joined) await this.next((m) => m.event === 'reconnected');
        const answer = this.next(
          (m) => (m.event === 'cycle' && m.data.commandId === spin.commandId) || m.event === 'error' || m.event === 'reconnected',
        );
        this.send('spin', { commandId: spin.commandId });
        const m = await answer;
        if (m.event === 'cycle') return;
        if (m.event === 'error') {
          spin.refusedCode = Number(m.data.code);
          return this.noteError(m);
        }
        // The socket dropped and was joined again: the same command id once more.
        spin.resent = true;
      }
    } catch {
      // no answer in time: counted as a spin without a result
    } finally {
      this.pending = null;
    }
  }

  private noteError(m: Message): void {
    const code = Number(m.data.code);
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }

  private send(event: string, data: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ event, data }));
  }

  /** The next message that matches, or a rejection after ANSWER_TIMEOUT_MS. */
  private next(match: (m: Message) => boolean, what = 'an answer', timeoutMs = ANSWER_TIMEOUT_MS): Promise<Message> {
    return new Promise((resolve, reject) => {
      const waiter = (m: Message) => {
        if (!match(m)) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(m);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`${this.seat.username}: no ${what} in ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  private deliver(m: Message): void {
    const spin = this.pending;
    if (m.event === 'machine') this.cabinetState = String(m.data.cabinetState);
    if (m.event === 'joined') this.cabinetState = String((m.data.machine as { cabinetState: string }).cabinetState);
    if (spin && m.event === 'machine' && m.data.cabinetState !== 'idle') spin.acceptedAt ??= Date.now();
    if (m.event === 'cycle') this.cyclesAt.push(Date.now());
    if (m.event === 'cycle' && typeof m.data.commandId === 'string') {
      this.results.add(m.data.commandId);
      if (spin?.commandId === m.data.commandId) spin.resultAt ??= Date.now();
    }
    if (m.event === 'error' && typeof m.data.commandId === 'string' && m.data.commandId !== this.pending?.commandId) return;
    for (const waiter of [...this.waiters]) waiter(m);
  }

  /** Opens the game socket and joins the seat's machine; after a drop, again until it is joined. */
  private async connect(): Promise<void> {
    const url = `${this.baseUrl.replace(/^http/, 'ws')}/ws/game?token=${this.token}&machineId=${this.seat.machineId}`;
    const socket = new WebSocket(url, { perMessageDeflate: false });
    this.socket = socket;
    const joined = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => (socket.terminate(), reject(new Error('not joined in time'))), ANSWER_TIMEOUT_MS);
      this.joinedResolve = () => (clearTimeout(timer), resolve());
      socket.once('error', reject);
      socket.once('close', () => (clearTimeout(timer), reject(new Error('closed before joining'))));
    });
    let joinedHere = false;
    // After the join's own error handling: a later error is followed by 'close', which reconnects.
    socket.on('error', () => {});
    socket.on('open', () => this.send('init', { machineID: this.seat.machineId, token: this.token, protocol: PROTOCOL_VERSION }));
    socket.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Message;
      if (m.event === 'joined') {
        joinedHere = true;
        this.joined = true;
        this.joinedResolve?.();
      }
      this.deliver(m);
    });
    socket.on('close', () => {
      if (this.socket === socket) this.joined = false;
      // A socket that never joined belongs to a reconnect loop, which tries again by itself.
      if (this.closing || this.socket !== socket || !joinedHere) return;
      void this.reconnect();
    });
    await joined;
  }

  private async reconnect(): Promise<void> {
    this.reconnects++;
    for (let delayMs = 100; !this.closing; delayMs = Math.min(2_000, delayMs * 2)) {
      await sleep(delayMs);
      try {
        await this.connect();
        this.deliver({ event: 'reconnected', data: {} });
        return;
      } catch {
        // the cluster is still moving the sessions: again
      }
    }
  }
}

/** The notice of a session held as a malfunction (what a held session's cash out answers). */
const isMalfunction = (m: Message) => m.event === 'info' && Number(m.data.code) === Code.MachineMalfunction;

/** Up to 14 tries (~45 s), 0.5 s apart and doubling to 4 s; the last failure is thrown. */
async function retry(attempt: () => Promise<void>): Promise<void> {
  for (let tries = 1, delayMs = 500; ; tries++, delayMs = Math.min(4_000, delayMs * 2)) {
    try {
      return await attempt();
    } catch (error) {
      if (tries === 14) throw error;
      await sleep(delayMs);
    }
  }
}
