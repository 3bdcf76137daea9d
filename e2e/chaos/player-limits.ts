/**
 * A chaos player's own limits (issue 28): set with `PUT /api/player/limits` before it plays, and
 * now and then lowered to a little above what it used (a lowering applies at once). Each PUT goes
 * into the history with what the server answered. It steers the player's play by the refusals: a
 * cash in above the deposit allowance is refused (inside the cash in's transaction, so nothing
 * moved) and the next one asks for exactly what is left; a loss limit reached stops its spins.
 */
import { Code } from '@reel/protocol';
import type { HistoryOp, MoneyLimitKey } from './history.js';

type LimitsOp = Extract<HistoryOp, { type: 'limits' }>;
const DEPOSIT_CODES = new Set<number>([Code.DepositLimitDay, Code.DepositLimitWeek, Code.DepositLimitMonth]);
const LOSS_CODES = new Set<number>([Code.LossLimitDay, Code.LossLimitWeek, Code.LossLimitMonth]);

export type LimitPlan = { key: MoneyLimitKey; value: number }[];

export class ChaosLimits {
  private set = false;
  /** What the last deposit refusal said is left; null: not known. */
  private depositLeft: number | null = null;
  lossReached = false;
  /** Refusals by a limit (for the report). */
  refusals = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly username: string,
    private readonly plan: LimitPlan,
    private readonly history: HistoryOp[],
    private readonly rng: () => number,
  ) {}

  get hasDeposit(): boolean {
    return this.plan.some((l) => l.key.startsWith('deposit'));
  }

  /** Autoplay is the cabinet's own loop, stopped by the server after a game: a loss-limited player spins itself. */
  get hasLoss(): boolean {
    return this.plan.some((l) => l.key.startsWith('loss'));
  }

  /** The deposit allowance is used up: no cash in can pass. */
  get depositSpent(): boolean {
    return this.depositLeft !== null && this.depositLeft < 100;
  }

  /** A PUT is due: the first one, then now and then a lowering. */
  due(): boolean {
    return !this.set || this.rng() < 0.02;
  }

  private async put(token: string, limits: LimitPlan): Promise<boolean> {
    const op: LimitsOp = { type: 'limits', player: this.username, limits, outcome: 'unknown', sentAt: Date.now() };
    this.history.push(op);
    try {
      const res = await fetch(`${this.baseUrl}/api/player/limits`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ limits }),
        signal: AbortSignal.timeout(5_000),
      });
      const body = (await res.json()) as { status?: boolean; code?: number };
      if (res.status === 200 && body.status !== false) {
        op.outcome = 'ok';
        op.ackedAt = Date.now();
      } else if (res.status < 500 && body.code !== undefined) op.outcome = 'refused';
    } catch {
      // No answer: it may apply or not; the checker does not count on it.
    }
    return op.outcome === 'ok';
  }

  /** The first PUT, or a lowering of one planned limit to a little above what is used of it now. */
  async act(token: string): Promise<void> {
    if (!this.set) {
      this.set = await this.put(token, this.plan);
      return;
    }
    try {
      const res = await fetch(`${this.baseUrl}/api/player/limits`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5_000) });
      const { limits } = (await res.json()) as { limits?: { key: MoneyLimitKey; value: number | null; used: number }[] };
      const mine = (limits ?? []).filter((l) => l.value !== null && this.plan.some((p) => p.key === l.key));
      const pick = mine[Math.floor(this.rng() * mine.length)];
      if (!pick) return;
      const value = pick.used + (pick.key.startsWith('deposit') ? 5_000 + Math.floor(this.rng() * 10_000) : 100 + Math.floor(this.rng() * 300));
      if (value < pick.value!) await this.put(token, [{ key: pick.key, value }]);
    } catch {
      // server down: another time
    }
  }

  /** A cash in's amount: what the player wanted, or what the last refusal said is left. */
  cashInAmount(wanted: number): number {
    return this.depositLeft !== null ? Math.min(wanted, this.depositLeft) : wanted;
  }

  /** A cash in refused by a deposit limit (nothing moved): remembers what is left. */
  depositRefusal(code: number, params: Record<string, unknown> | undefined): boolean {
    if (!DEPOSIT_CODES.has(code)) return false;
    this.refusals++;
    this.depositLeft = Number(params?.left_cents ?? 0);
    return true;
  }

  /** A cash in that went through: the allowance shrank by it. */
  cashedIn(amountCents: number): void {
    if (this.depositLeft !== null) this.depositLeft -= amountCents;
  }

  lossRefusal(code: number): boolean {
    if (!LOSS_CODES.has(code)) return false;
    this.refusals++;
    this.lossReached = true;
    return true;
  }
}
