/**
 * The fault suite's staff at the hand pay queue (issue 27): staff1 and staff2 sign in to the console
 * API (/api/admin, the product's own routes, apps/server/src/modules/hand-pays/) and approve every
 * waiting hand pay, a second, different signer for one at or above HAND_PAY_SECOND_SIGNER. Each
 * approval marks a kill moment just before it is sent (kills.ts times some kills to it), and goes
 * into the history with what the console answered: paid, a first signature, refused (already paid,
 * the same signer twice: refused inside its transaction), or no answer (`unknown`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { AdminHandPayPath, AdminPath, Code, type HandPayApproveResult, type HandPayView } from '@reel/protocol';
import type { HistoryOp } from './history.js';
import type { KillMoments } from './moments.js';

type Approval = Extract<HistoryOp, { type: 'handPayApproval' }>;
const STAFF = ['staff1', 'staff2'] as const;
const REFUSED = new Set<number>([Code.HandPayNotWaiting, Code.SecondSignerSame]);

export class HandPayDesk {
  private readonly tokens = new Map<string, string>();
  private stopped = false;
  private running: Promise<void> = Promise.resolve();
  /** Hand pays seen waiting (for the report). */
  readonly seen = new Set<number>();

  constructor(
    private readonly baseUrl: string,
    private readonly history: HistoryOp[],
    private readonly moments: KillMoments,
    private readonly rng: () => number,
  ) {}

  private async call<T>(staff: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: T & { code?: number } }> {
    let token = this.tokens.get(staff);
    if (!token) {
      const res = await fetch(`${this.baseUrl}/api${AdminPath.login}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: staff, password: 'staff1234' }),
        signal: AbortSignal.timeout(5_000),
      });
      token = ((await res.json()) as { token?: string }).token;
      if (!token) throw new Error(`${staff} could not sign in (${res.status})`);
      this.tokens.set(staff, token);
    }
    const res = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status === 401) this.tokens.delete(staff);
    return { status: res.status, json: (await res.json()) as T & { code?: number } };
  }

  private async approve(handPay: HandPayView): Promise<void> {
    const others = STAFF.filter((s) => `operator:${s}` !== handPay.firstSigner);
    const signer = others[Math.floor(this.rng() * others.length)]!;
    const op: Approval = { type: 'handPayApproval', player: handPay.username, handPayId: handPay.id, amountCents: handPay.amountCents, signer: `operator:${signer}`, outcome: 'unknown', sentAt: Date.now() };
    this.history.push(op);
    try {
      // Signed in before the moment is marked: the kill lands on the approval itself.
      if (!this.tokens.has(signer)) await this.call(signer, 'GET', `${AdminHandPayPath.list}?status=waiting`);
      this.moments.mark('approval');
      const { status, json } = await this.call<HandPayApproveResult>(signer, 'POST', AdminHandPayPath.approve.replace(':id', String(handPay.id)), { reason: 'fault suite: checked on camera' });
      if (status === 200) {
        op.outcome = 'ok';
        op.paid = json.paid;
        op.ackedAt = Date.now();
      } else if (json.code !== undefined && REFUSED.has(json.code)) op.outcome = 'refused';
    } catch {
      // No answer: the server or its database died under it.
    }
  }

  /** One look at the queue; every waiting hand pay gets an approval. False when the queue could not be read. */
  private async round(): Promise<{ read: boolean; waiting: number }> {
    try {
      const staff = STAFF[Math.floor(this.rng() * STAFF.length)]!;
      const { status, json } = await this.call<HandPayView[]>(staff, 'GET', `${AdminHandPayPath.list}?status=waiting`);
      if (status !== 200 || !Array.isArray(json)) return { read: false, waiting: 0 };
      for (const handPay of json) {
        this.seen.add(handPay.id);
        await this.approve(handPay);
      }
      return { read: true, waiting: json.length };
    } catch {
      return { read: false, waiting: 0 };
    }
  }

  start(): void {
    this.running = (async () => {
      while (!this.stopped) {
        await this.round();
        await sleep(500 + this.rng() * 1_000);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.race([this.running, sleep(30_000)]);
  }

  /** After the faults: approves until the queue reads empty (every machine unlocked); false at the deadline. */
  async settleAll(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { read, waiting } = await this.round();
      if (read && waiting === 0) return true;
      await sleep(1_000);
    }
    return false;
  }
}
