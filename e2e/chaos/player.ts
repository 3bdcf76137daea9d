/**
 * One chaos player: signs in, joins its machine over the game channel and plays a random mix of
 * cash in, spins (some sent twice with the same command id, and a spin left without an answer is
 * sent again after the reconnect), autoplay, cash out, leave and promotion claims, one at a time,
 * through every crash. It writes into the shared history what it was told, and only that
 * (history.ts): an answer it did not get leaves the operation `unknown`.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { IDEMPOTENCY_HEADER, PROTOCOL_VERSION } from '@reel/protocol';
import type { HistoryOp } from './history.js';
import type { KillMoments } from './moments.js';
import type { ChaosLimits } from './player-limits.js';

type Rng = () => number;
type Reply = { event: string; data: Record<string, unknown> };
type OpOf<T extends HistoryOp['type']> = Extract<HistoryOp, { type: T }>;
const ACK_TIMEOUT_MS = 15_000;
/** Cash outs the server has nothing to pay for answer nothing: a shorter wait. */
const CASH_OUT_TIMEOUT_MS = 8_000;

interface StreamGrant {
  grant: string;
  whepUrl: string;
}

export class ChaosPlayer {
  refusals = 0;
  reconnects = 0;
  /** Error answers by code (for the report). */
  readonly errors = new Map<number, number>();
  private joined = false;
  /** Why the last join failed (for the report). */
  lastRefusal = '';
  private socket: WebSocket | null = null;
  private token = '';
  private credits = 0;
  private sessionId = '';
  private grant: StreamGrant | null = null;
  private waiting: { events: string[]; matches: (data: Record<string, unknown>) => boolean; resolve: (reply: Reply) => void } | null = null;
  /** A cash in without an answer: sent again with the same key. */
  private unansweredCashIn: OpOf<'cashIn'> | null = null;
  /** A spin without an answer, and the session it was sent in: sent again there after a reconnect. */
  private unansweredSpin: { op: OpOf<'spin'>; sessionId: string } | null = null;
  private readonly pendingSpins = new Map<string, OpOf<'spin'>>();
  /** Sign-ins give up at this time; the play loop runs until stop(). */
  private runUntil = Number.POSITIVE_INFINITY;
  private stopped = false;
  private readonly notes = new Set<string>();

  constructor(
    private readonly baseUrl: string,
    readonly username: string,
    private readonly password: string,
    readonly machineId: number,
    private readonly rng: Rng,
    private readonly history: HistoryOp[],
    /** The player whose machine keeps its video never leaves it (the video probe watches it). */
    private readonly staysOn = false,
    /** The player's own limits (player-limits.ts), and the moments kills are timed to (moments.ts). */
    private readonly extras: { limits?: ChaosLimits; moments?: KillMoments } = {},
  ) {}

  private async signIn(deadline: number): Promise<boolean> {
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

  private onMessage(event: string, data: Record<string, unknown>) {
    const now = Date.now();
    if (event === 'machine') this.credits = Number(data.creditsCents ?? this.credits);
    if (event === 'joined') {
      this.credits = Number((data.machine as { creditsCents: number }).creditsCents);
      this.sessionId = String((data.session as { sessionId: string }).sessionId);
      this.grant = (data.stream as StreamGrant | null) ?? this.grant;
    }
    if (event === 'stream') this.grant = data as unknown as StreamGrant;
    if (event === 'error') this.errors.set(Number(data.code), (this.errors.get(Number(data.code)) ?? 0) + 1);
    if (event === 'cashedIn') this.cashedIn(Number(data.amountCents));
    if (event === 'joined' || event === 'closed') this.joined = event === 'joined';
    if (event === 'cashedOut') this.history.push({ type: 'cashOut', player: this.username, amountCents: Number(data.amountCents), at: now });
    if (event === 'cycle') {
      const commandId = typeof data.commandId === 'string' ? data.commandId : undefined;
      this.history.push({
        type: 'cycle',
        player: this.username,
        machineId: this.machineId,
        gameId: String(data.gameId),
        ...(commandId ? { commandId } : {}),
        betCents: Number(data.betCents),
        winCents: Number(data.winCents),
        freeSpin: Boolean(data.freeSpin),
        jackpotHit: Boolean(data.jackpotHit),
        at: now,
      });
      const spin = commandId ? this.pendingSpins.get(commandId) : undefined;
      if (spin) {
        spin.outcome = 'ok';
        spin.ackedAt = now;
        this.pendingSpins.delete(commandId!);
      }
    }
    const w = this.waiting;
    if (w && ((w.events.includes(event) && w.matches(data)) || event === 'error' || event === 'closed')) {
      this.waiting = null;
      w.resolve({ event, data });
    }
  }

  /**
   * `cashedIn` names no key, only the amount: it acknowledges the latest unanswered cash in of that
   * amount (one that timed out may be answered late, while the next one waits).
   */
  private cashedIn(amountCents: number) {
    for (let i = this.history.length - 1; i >= 0; i--) {
      const op = this.history[i]!;
      if (op.type === 'cashIn' && op.player === this.username && op.outcome === 'unknown' && op.amountCents === amountCents) {
        op.outcome = 'ok';
        this.extras.limits?.cashedIn(amountCents);
        return;
      }
    }
  }

  /** Joins the machine; false when the server refused (machine not ready) or the socket dropped. */
  private async join(deadline: number): Promise<boolean> {
    if (!this.token && !(await this.signIn(deadline))) return false;
    const url = `${this.baseUrl.replace(/^http/, 'ws')}/ws/game?token=${encodeURIComponent(this.token)}`;
    const socket = new WebSocket(url, { origin: this.baseUrl, handshakeTimeout: 5_000 });
    this.socket = socket;
    socket.on('message', (raw) => {
      try {
        const { event, data } = JSON.parse(String(raw)) as Reply;
        this.onMessage(event, data);
      } catch {
        // not JSON
      }
    });
    socket.on('close', () => {
      if (this.socket === socket) {
        this.socket = null;
        this.joined = false;
      }
      const w = this.waiting;
      this.waiting = null;
      w?.resolve({ event: 'dropped', data: {} });
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

  private request(message: { event: string; data: unknown }, events: string[], matches: (data: Record<string, unknown>) => boolean = () => true, timeoutMs = ACK_TIMEOUT_MS): Promise<Reply> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        resolve({ event: 'timeout', data: {} });
      }, timeoutMs);
      this.waiting = { events, matches, resolve: (reply) => (clearTimeout(timer), resolve(reply)) };
      this.socket?.send(JSON.stringify(message));
    });
  }

  private async cashIn(): Promise<void> {
    const { limits, moments } = this.extras;
    const wanted = 500 + Math.floor(this.rng() * 4_500);
    const op = this.unansweredCashIn ?? {
      type: 'cashIn' as const,
      player: this.username,
      key: randomUUID(),
      amountCents: limits ? limits.cashInAmount(wanted) : wanted,
      outcome: 'unknown' as const,
      sends: 0,
      sentAt: Date.now(),
    };
    if (op.sends === 0) this.history.push(op);
    op.sends++;
    this.unansweredCashIn = op;
    if (limits?.hasDeposit) moments?.mark('limitedCashIn');
    const { event, data } = await this.request({ event: 'cashin', data: { amountCents: op.amountCents, idempotencyKey: op.key } }, ['cashedIn'], (data) => data.amountCents === op.amountCents);
    // An error may come after the money moved (a machine that refused the credit is refunded): unknown.
    if (op.outcome === 'ok' || event === 'error' || op.sends >= 3) this.unansweredCashIn = null;
    // A deposit limit refuses inside the cash in's transaction: nothing moved. (Not for a re-send,
    // whose first send may have gone through.)
    if (event === 'error' && limits?.depositRefusal(Number(data.code), data.Params as Record<string, unknown> | undefined) && op.sends === 1) op.outcome = 'refused';
    if (event === 'error') await this.refused();
  }

  /** After an error answer (a free-spins round still playing, no credits), a moment before the next command. */
  private async refused() {
    this.refusals++;
    await sleep(500);
  }

  private async spin(op?: OpOf<'spin'>): Promise<void> {
    if (!op) {
      op = { type: 'spin', player: this.username, commandId: randomUUID(), outcome: 'unknown', sends: 0, sentAt: Date.now() };
      this.history.push(op);
      this.pendingSpins.set(op.commandId, op);
    }
    const commandId = op.commandId;
    const twice = op.sends === 0 && this.rng() < 0.15;
    op.sends += twice ? 2 : 1;
    // A duplicate frame: the same command twice in a row.
    if (twice) this.socket?.send(JSON.stringify({ event: 'spin', data: { commandId } }));
    const { event, data } = await this.request({ event: 'spin', data: { commandId } }, ['cycle'], (d) => d.commandId === commandId);
    if (event === 'error') this.extras.limits?.lossRefusal(Number(data.code));
    if (event === 'error') await this.refused();
    if (event === 'dropped' || event === 'timeout') this.unansweredSpin = { op, sessionId: this.sessionId };
  }

  private async autoplay(): Promise<void> {
    for (const on of [true, false]) {
      const op: OpOf<'autoplay'> = { type: 'autoplay', player: this.username, on, outcome: 'unknown', sentAt: Date.now() };
      this.history.push(op);
      const { event } = await this.request({ event: 'autoplay', data: { commandId: randomUUID(), on } }, ['machine']);
      if (event === 'machine') op.outcome = 'ok';
      if (on) await sleep(2_000 + this.rng() * 3_000);
    }
  }

  private async claimPromotion(): Promise<void> {
    const kind = this.rng() < 0.7 ? 'bonus' : 'discount';
    const op: OpOf<'promotion'> = { type: 'promotion', player: this.username, kind, key: randomUUID(), outcome: 'unknown', sentAt: Date.now() };
    this.history.push(op);
    // A claim without an answer is sent once more with the same key.
    for (let attempt = 0; attempt < 2 && op.outcome === 'unknown'; attempt++) {
      try {
        const res = await fetch(`${this.baseUrl}/api/player/${kind}`, {
          headers: { authorization: `Bearer ${this.token}`, [IDEMPOTENCY_HEADER]: op.key },
          signal: AbortSignal.timeout(5_000),
        });
        const body = (await res.json()) as { status: boolean; code?: number; Params?: { amount?: number } };
        if (body.status) {
          op.outcome = 'ok';
          op.amountCents = Number(body.Params?.amount);
        } else if (res.status < 500 && body.code !== undefined) {
          // 40202, 40203, 40204: refused inside the money transaction, nothing credited.
          op.outcome = 'refused';
          this.refusals++;
        }
      } catch {
        await sleep(500);
      }
    }
  }

  private async cashOut(): Promise<void> {
    if (this.credits > 0 && (await this.request({ event: 'cashout', data: {} }, ['cashedOut'], () => true, CASH_OUT_TIMEOUT_MS)).event === 'error') await this.refused();
  }

  /** One random step; the socket must be joined. */
  private async step(): Promise<void> {
    if (this.unansweredSpin) {
      const { op, sessionId } = this.unansweredSpin;
      this.unansweredSpin = null;
      // The same command in the same session: the cabinet must not play it twice.
      if (sessionId === this.sessionId && op.outcome !== 'ok') return this.spin(op);
    }
    const limits = this.extras.limits;
    if (limits?.due()) return limits.act(this.token);
    const roll = this.rng();
    if (this.unansweredCashIn) return this.cashIn();
    // A limit reached: no more play; what is on the machine goes back, then claims and waits.
    if (limits?.lossReached || (limits?.depositSpent && this.credits < 200)) return this.credits > 0 ? this.cashOut() : roll < 0.3 ? this.claimPromotion() : void (await sleep(1_000));
    if ((roll < 0.15 && this.credits < 20_000 && !limits?.depositSpent) || this.credits < 200) return this.cashIn();
    if (roll < 0.75) return this.spin();
    if (roll < 0.8) return limits?.hasLoss ? this.spin() : this.autoplay();
    if (roll < 0.9) return this.cashOut();
    if (roll < 0.94 && !this.staysOn) {
      await this.request({ event: 'leave', data: {} }, ['closed']);
      this.socket?.close();
      return;
    }
    await this.claimPromotion();
  }

  async run(): Promise<void> {
    while (!this.stopped) {
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

  /** A fresh stream grant for the video probe (null while the player is not on its machine). */
  async requestStream(): Promise<StreamGrant | null> {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN || !this.joined) return null;
    this.grant = null;
    this.socket.send(JSON.stringify({ event: 'stream', data: {} }));
    for (let i = 0; i < 50 && !this.grant; i++) await sleep(100);
    return this.grant;
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
    this.stopped = true;
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
        if (event === 'closed') {
          // The closing cash out's `cashedOut` comes before `closed`; give a late one a moment.
          await sleep(500);
          this.socket?.close();
          return true;
        }
      }
      await sleep(1_000);
    }
    return false;
  }
}
