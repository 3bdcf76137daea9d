/**
 * The `machine_commands` SQL, and the only file that writes the table: the outbox rows of the money
 * commands sent to cabinets (credit in, cash out, hand pay). Rows are written in the transaction of
 * their ledger side (`tx`); command-outbox.ts sends them and books what the cabinet answered.
 */
import type { Queryable, Tx } from '../../db/pool.js';

/** A row of the `machine_commands` outbox. */
export interface OutboxCommand {
  command_id: string;
  machine_id: number;
  session_id: string;
  player_id: number;
  type: string;
  amount_cents: number | null;
}

interface CommandOwner {
  commandId: string;
  machineId: number;
  sessionId: string;
  playerId: number;
}

export async function insertCreditIn(tx: Tx, command: CommandOwner & { amountCents: number }) {
  await tx.query(
    "INSERT INTO machine_commands (command_id, machine_id, session_id, player_id, type, amount_cents) VALUES ($1, $2, $3, $4, 'credit_in', $5)",
    [command.commandId, command.machineId, command.sessionId, command.playerId, command.amountCents],
  );
}

export async function insertCashOut(tx: Tx, command: CommandOwner) {
  await tx.query("INSERT INTO machine_commands (command_id, machine_id, session_id, player_id, type) VALUES ($1, $2, $3, $4, 'cash_out')", [
    command.commandId,
    command.machineId,
    command.sessionId,
    command.playerId,
  ]);
}

/** Written once however often the game that asks for it is reported. */
export async function insertHandPay(db: Queryable, command: CommandOwner & { amountCents: number }) {
  await db.query(
    `INSERT INTO machine_commands (command_id, machine_id, session_id, player_id, type, amount_cents)
       VALUES ($1, $2, $3, $4, 'hand_pay', $5) ON CONFLICT DO NOTHING`,
    [command.commandId, command.machineId, command.sessionId, command.playerId, command.amountCents],
  );
}

export async function readCommand(db: Queryable, commandId: string) {
  const { rows } = await db.query<OutboxCommand & { status: string }>('SELECT * FROM machine_commands WHERE command_id = $1', [commandId]);
  return rows[0];
}

/** The session's oldest pending command of a type. */
export async function pendingCommand(db: Queryable, sessionId: string, type: string) {
  const { rows } = await db.query<{ command_id: string }>(
    "SELECT command_id FROM machine_commands WHERE session_id = $1 AND type = $2 AND status = 'pending' ORDER BY created_at LIMIT 1",
    [sessionId, type],
  );
  return rows[0]?.command_id;
}

/** The machine's pending commands, oldest first. */
export async function pendingCommands(db: Queryable, machineId: number) {
  const { rows } = await db.query<{ command_id: string }>(
    "SELECT command_id FROM machine_commands WHERE machine_id = $1 AND status = 'pending' ORDER BY created_at",
    [machineId],
  );
  return rows.map((row) => row.command_id);
}

/** A credit in the cabinet applied. */
export async function markDone(db: Queryable, commandId: string) {
  await db.query("UPDATE machine_commands SET status = 'done', done_at = now() WHERE command_id = $1", [commandId]);
}

/** A cash out (or hand pay) paid `paidCents`; false when it was booked before. */
export async function markPaid(tx: Tx, commandId: string, paidCents: number) {
  const done = await tx.query("UPDATE machine_commands SET status = 'done', done_at = now(), amount_cents = $2 WHERE command_id = $1 AND status = 'pending'", [
    commandId,
    paidCents,
  ]);
  return Boolean(done.rowCount);
}

/** A credit in the cabinet refused; false when it was refunded before. */
export async function markRefunded(tx: Tx, commandId: string) {
  const done = await tx.query("UPDATE machine_commands SET status = 'refunded', done_at = now() WHERE command_id = $1 AND status = 'pending'", [commandId]);
  return Boolean(done.rowCount);
}

/** A session settled from the records: its pending commands are never sent again. */
export async function voidPendingCommands(tx: Tx, sessionId: string) {
  await tx.query("UPDATE machine_commands SET status = 'void', done_at = now() WHERE session_id = $1 AND status = 'pending'", [sessionId]);
}
