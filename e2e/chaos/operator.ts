/**
 * The operator of the fault suite: creates the extra players before the run, then deposits and
 * withdraws for random players throughout it, with the operator CLI's own commands
 * (apps/server/src/cli/operator-commands.ts, `npm run operator -- deposit <player> <amount> --key`)
 * on the product's PostgreSQL, like the CLI does. A command without an answer (the database was
 * killed under it) is sent again once with the same key; whatever it was told goes into the history.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPlayerCommand, depositCommand, withdrawCommand } from '../../apps/server/src/cli/operator-commands.js';
import { createPool, type Db } from '../../apps/server/src/db/pool.js';
import { loadProcessAuditKey } from '../../apps/server/src/modules/audit/audit-signing.js';
import { AppError } from '../../apps/server/src/lib/errors.js';
import type { HistoryOp } from './history.js';

type Rng = () => number;
type OpOf<T extends HistoryOp['type']> = Extract<HistoryOp, { type: T }>;

export class ChaosOperator {
  private pool: { url: string; db: Db } | null = null;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();

  constructor(
    /** Read again for each command: a restarted group may give PostgreSQL another port. */
    private readonly databaseUrl: () => string,
    private readonly rng: Rng,
    private readonly history: HistoryOp[],
    /** The product's data folder: its audit key signs this operator's rows, as `npm run operator` does. */
    dataDir: string,
  ) {
    loadProcessAuditKey({ dataDir });
  }

  private db(): Db {
    const url = this.databaseUrl();
    if (this.pool?.url !== url) {
      void this.pool?.db.end().catch(() => {});
      this.pool = { url, db: createPool(url, 2) };
    }
    return this.pool.db;
  }

  /** Players beyond the demo's three, each with a first deposit (before the run's baseline). */
  async createPlayers(players: { username: string; password: string }[], depositCents: number): Promise<void> {
    for (const p of players) {
      await createPlayerCommand(this.db(), { username: p.username, email: `${p.username}@chaos.reel.live`, password: p.password });
      await depositCommand(this.db(), p.username, depositCents, `chaos-seed-${p.username}`);
    }
  }

  private async cashier(player: string): Promise<void> {
    const deposit = this.rng() < 0.6;
    const op: OpOf<'cashier'> = {
      type: 'cashier',
      player,
      direction: deposit ? 'deposit' : 'withdraw',
      key: `chaos-operator-${randomUUID()}`,
      amountCents: deposit ? 1_000 + Math.floor(this.rng() * 9_000) : 500 + Math.floor(this.rng() * 2_500),
      outcome: 'unknown',
      sentAt: Date.now(),
    };
    this.history.push(op);
    for (let attempt = 0; attempt < 2 && op.outcome === 'unknown'; attempt++) {
      try {
        await (deposit ? depositCommand : withdrawCommand)(this.db(), player, op.amountCents, op.key);
        op.outcome = 'ok';
      } catch (error) {
        // Refused inside its transaction (not enough cash to withdraw): nothing moved.
        if (error instanceof AppError) op.outcome = 'refused';
        else await sleep(1_000);
      }
    }
  }

  start(players: string[]): void {
    this.running = (async () => {
      while (!this.stopped) {
        await this.cashier(players[Math.floor(this.rng() * players.length)]!);
        await sleep(300 + this.rng() * 900);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // A command stuck on a dead connection must not hold the run's end.
    await Promise.race([this.running, sleep(30_000)]);
    await this.pool?.db.end().catch(() => {});
    this.pool = null;
  }
}
