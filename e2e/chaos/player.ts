/**
 * One chaos player: signs in, joins its machine over the game channel and plays a random mix of
 * cash in, spins, autoplay, cash out, leave and promotion claims, one at a time, through every
 * crash. Reconnects by itself; a cash in that was not acknowledged is sent again with the same
 * idempotency key (the server must apply it once). Records what the server acknowledged.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '@reel/protocol';

interface Acknowledged {
  cashIns: string[];
  spins: string[];
  cashOuts: number;
  promotions: number;
}

type Rng = () => number;
const ACK_TIMEOUT_MS = 15_000;

export class ChaosPlayer {
  readonly acked: Acknowledged = { cashIns: [], spins: [], cashOuts: 0, promotions: 0 };
  operations = 0;
  refusals = 0;
  reconnects = 0;
  /** Why the last join failed (for the report). */
  lastRefusal = '';
  private socket: WebSocket | null = null;
  private token = '';
  private credits = 0;
  private waiting: {
    events: string[];
    matches: (data: Record<string, unknown>) => boolean;
    resolve: (event: string, data: Record<string, unknown>) => void;
  } | null = null;
  private unackedCashIn: { key: string; amountCents: number } | null = null;
  /** The play loop runs until this time; the final leave sets its own deadline. */
  private runUntil = Number.POSITIVE_INFINITY;

  constructor(
    private readonly baseUrl: string,
    readonly username: string,
    private readonly password: string,
    readonly machineId: number,
    private readonly rng: Rng,
  ) {}

  private async signIn(deadline: number): Promise<boolean> {
    // Sign-in is rate limited per IP (LOGIN_RATE_LIMIT_PER_MINUTE): back off, never hammer it.
    for (let delayMs = 1_000; Date.now() < Math.min(deadline, this.runUntil); delayMs = Math.min(15_000, delayMs * 2)) {
      try {
        const res = await fetch(`${this.baseUrl}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: this.username, password: this.password }),
          signal: AbortSignal.timeout(5_000),
        });
        const body = (await res.json()) as { status: boolean; code?: number; token?: string };
        if (body.status && body.token) {
          this.token = body.token;
          return true;
        }
        this.note(`sign-in refused with code ${body.code}`);
      } catch {
        // server down: try again
      }
      await sleep(delayMs);
    }
    return false;
  }

  /** Joins the machine; false when the server refused (machine not ready) or the socket dropped. */
  private async join(deadline: number): Promise<boolean> {
    if (!this.token && !(await this.signIn(deadline))) return false;
    const url = `${this.baseUrl.replace(/^http/, 'ws')}/ws/game?token=${encodeURIComponent(this.token)}`;
    const socket = new WebSocket(url, { origin: this.baseUrl, handshakeTimeout: 5_000 });
    this.socket = socket;
    socket.on('message', (raw) => {
      let message: { event: string; data: Record<string, unknown> };
      try {
        message = JSON.parse(String(raw)) as typeof message;
      } catch {
        return;
      }
      const { event, data } = message;
      if (event === 'machine') this.credits = Number(data.creditsCents ?? this.credits);
      if (event === 'joined') this.credits = Number((data.machine as { creditsCents: number }).creditsCents);
      const awaited = this.waiting && this.waiting.events.includes(event) && this.waiting.matches(data);
      if (this.waiting && (awaited || event === 'error' || event === 'closed')) {
        const w = this.waiting;
        this.waiting = null;
        w.resolve(event, data);
      }
    });
    socket.on('close', () => {
      if (this.socket === socket) this.socket = null;
      const w = this.waiting;
      this.waiting = null;
      w?.resolve('dropped', {});
    });
    socket.on('error', () => {});
    const opened = await new Promise<boolean>((resolve) => {
      socket.once('open', () => resolve(true));
      socket.once('close', () => resolve(false));
    });
    if (!opened) return false;
    const { event, data } = await this.request({ event: 'init', data: { machineID: this.machineId, token: this.token, protocol: PROTOCOL_VERSION } }, ['joined']);
    if (event === 'error' && Number(data.code) === 40102) this.token = '';
    if (event !== 'joined') this.note(`join refused: ${event} ${JSON.stringify(data)}`);
    return event === 'joined';
  }

  /** Prints each distinct reason once, so a report shows what the player ran into. */
  private note(reason: string) {
    this.lastRefusal = reason;
    if (this.notes.has(reason)) return;
    this.notes.add(reason);
    console.log(`chaos: ${this.username}: ${reason}`);
  }
  private readonly notes = new Set<string>();

  private request(
    message: { event: string; data: unknown },
    events: string[],
    matches: (data: Record<string, unknown>) => boolean = () => true,
  ): Promise<{ event: string; data: Record<string, unknown> }> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        resolve({ event: 'timeout', data: {} });
      }, ACK_TIMEOUT_MS);
      this.waiting = {
        events,
        matches,
        resolve: (event, data) => {
          clearTimeout(timer);
          resolve({ event, data });
        },
      };
      this.socket?.send(JSON.stringify(message));
    });
  }

  private async claimPromotion(): Promise<void> {
    const kind = this.rng() < 0.5 ? 'bonus' : 'discount';
    try {
      const res = await fetch(`${this.baseUrl}/api/player/${kind}`, { headers: { authorization: `Bearer ${this.token}` }, signal: AbortSignal.timeout(5_000) });
      const body = (await res.json()) as { status: boolean };
      if (body.status) this.acked.promotions++;
      else this.refusals++;
    } catch {
      // down
    }
  }

  /** One random step; the socket must be joined. */
  private async step(): Promise<void> {
    this.operations++;
    const roll = this.rng();
    if (this.unackedCashIn || (roll < 0.3 && this.credits < 5_000)) {
      const cashIn = this.unackedCashIn ?? { key: randomUUID(), amountCents: 500 + Math.floor(this.rng() * 4_500) };
      this.unackedCashIn = cashIn;
      const { event } = await this.request({ event: 'cashin', data: { amountCents: cashIn.amountCents, idempotencyKey: cashIn.key } }, ['cashedIn']);
      if (event === 'cashedIn') this.acked.cashIns.push(cashIn.key);
      if (event === 'cashedIn' || event === 'error') this.unackedCashIn = null;
      if (event === 'error') this.refusals++;
      return;
    }
    if (roll < 0.8) {
      const commandId = randomUUID();
      // Acknowledged only by the game this very command started (a free spin's cycle may come first).
      const { event } = await this.request({ event: 'spin', data: { commandId } }, ['cycle'], (data) => data.commandId === commandId);
      if (event === 'cycle') this.acked.spins.push(commandId);
      else if (event === 'error') this.refusals++;
      // Let the reels stop (and a free-spins round play) before the next command.
      await sleep(2_500);
      return;
    }
    if (roll < 0.85) {
      const commandId = randomUUID();
      await this.request({ event: 'autoplay', data: { commandId, on: true } }, ['machine']);
      await sleep(3_000 + this.rng() * 4_000);
      await this.request({ event: 'autoplay', data: { commandId: randomUUID(), on: false } }, ['machine']);
      return;
    }
    if (roll < 0.93) {
      const { event } = await this.request({ event: 'cashout', data: {} }, ['cashedOut']);
      if (event === 'cashedOut') this.acked.cashOuts++;
      return;
    }
    if (roll < 0.97) {
      await this.request({ event: 'leave', data: {} }, ['closed']);
      this.socket?.close();
      return;
    }
    await this.claimPromotion();
  }

  async run(): Promise<void> {
    while (Date.now() < this.runUntil) {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        if (!(await this.join(this.runUntil))) {
          this.socket?.terminate();
          this.reconnects++;
          await sleep(1_000);
          continue;
        }
      }
      await this.step();
    }
  }

  private async hasOpenSession(deadline: number): Promise<boolean> {
    try {
      if (!this.token && !(await this.signIn(deadline))) return true;
      const res = await fetch(`${this.baseUrl}/api/player/session`, { headers: { authorization: `Bearer ${this.token}` }, signal: AbortSignal.timeout(5_000) });
      return Boolean(((await res.json()) as { show?: boolean }).show);
    } catch {
      return true;
    }
  }

  stop(): void {
    this.runUntil = Date.now();
  }

  /** After the faults: join once more and leave, so every credit goes back to the wallet. */
  async leaveForGood(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    this.runUntil = deadline;
    while (Date.now() < deadline) {
      if (!(await this.hasOpenSession(deadline))) return true;
      if ((this.socket && this.socket.readyState === WebSocket.OPEN) || (await this.join(deadline))) {
        const { event } = await this.request({ event: 'leave', data: {} }, ['closed']);
        this.socket?.close();
        if (event === 'closed') return true;
      }
      await sleep(1_000);
    }
    return false;
  }
}
