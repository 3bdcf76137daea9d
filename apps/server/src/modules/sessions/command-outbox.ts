/**
 * The `machine_commands` outbox and each machine's command queue. A money command is written in
 * the same transaction as its ledger moves, then sent with its row's id; the cabinet runs an id at
 * most once and answers a repeat with the first result, so a command left pending by a dropped
 * socket or a killed server is simply sent again, and nothing is paid twice.
 */
import { Code, type CommandResult } from '@reel/protocol';
import type { Queryable } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import type { OutboxCommand } from './money-commands.js';
import type { CabinetPort } from './types.js';

export const COMMAND_TIMEOUT_MS = 8_000;

export class CommandOutbox {
  /** Money commands on one machine run one after another. */
  private readonly queues = new Map<number, Promise<unknown>>();

  constructor(
    private readonly deps: {
      db: Queryable;
      cabinets: CabinetPort;
      warn: (error: unknown, where: string) => void;
      /** Books what the cabinet answered (the money side); runs once per command. */
      book: (command: OutboxCommand, result: CommandResult) => Promise<void>;
    },
  ) {}

  /** Runs `work` after every earlier money work of the machine has finished. */
  onMachine<T>(machineId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(machineId) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(work);
    this.queues.set(machineId, next.catch(() => {}));
    return next;
  }

  async pendingCommand(sessionId: string, type: string) {
    const { rows } = await this.deps.db.query<{ command_id: string }>(
      "SELECT command_id FROM machine_commands WHERE session_id = $1 AND type = $2 AND status = 'pending' ORDER BY created_at LIMIT 1",
      [sessionId, type],
    );
    return rows[0]?.command_id;
  }

  async markDone(commandId: string) {
    await this.deps.db.query("UPDATE machine_commands SET status = 'done', done_at = now() WHERE command_id = $1", [commandId]);
  }

  /** Sends an outbox command to its cabinet and books the result. Safe to call again for the same id. */
  async run(commandId: string): Promise<void> {
    const { rows } = await this.deps.db.query<OutboxCommand & { status: string }>('SELECT * FROM machine_commands WHERE command_id = $1', [commandId]);
    const command = rows[0];
    if (!command || command.status !== 'pending') return;
    let result: CommandResult;
    try {
      result = await this.deps.cabinets.sendCommand(
        command.machine_id,
        // A hand pay is a cash out whose winning part the attendant pays by hand.
        command.type === 'credit_in' ? { type: 'credit_in', amountCents: command.amount_cents!, commandId } : { type: 'cash_out', commandId },
        { timeoutMs: COMMAND_TIMEOUT_MS },
      );
    } catch {
      // Still pending: sent again when the cabinet reconnects or at the next try.
      throw new AppError(Code.MachineNoAnswer, 503);
    }
    await this.deps.book(command, result);
  }

  /** Re-sends every pending command of a machine (after a reconnect or restart), in its queue. */
  async flush(machineId: number) {
    if (!this.deps.cabinets.isConnected(machineId)) return;
    await this.onMachine(machineId, () => this.runPending(machineId)).catch((e) => this.deps.warn(e, 'flush'));
  }

  /** The pending commands of a machine, oldest first; the caller holds the machine's queue. */
  async runPending(machineId: number) {
    const { rows } = await this.deps.db.query<{ command_id: string }>(
      "SELECT command_id FROM machine_commands WHERE machine_id = $1 AND status = 'pending' ORDER BY created_at",
      [machineId],
    );
    for (const { command_id } of rows) await this.run(command_id).catch((e) => this.deps.warn(e, 'flush'));
  }
}
