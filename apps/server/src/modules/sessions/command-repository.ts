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

/**
 * A hand pay command for a win at or above the limit, written in the game record's transaction (so
 * the machine's lock survives a kill -9: it is rebuilt from this row at start). A second such win
 * while one is still pending (a free spin of the same bonus round) adds to it: the cabinet cannot
 * have run the pending one yet (it takes every credit, and no game is played after it), so one
 * cash out takes both wins off the meter.
 */
export async function insertHandPay(tx: Tx, command: CommandOwner & { amountCents: number }) {
  const merged = await tx.query(
    `UPDATE machine_commands SET amount_cents = amount_cents + $3
      WHERE command_id = (SELECT command_id FROM machine_commands
                           WHERE machine_id = $1 AND session_id = $2 AND type = 'hand_pay' AND status = 'pending'
                           ORDER BY created_at LIMIT 1 FOR UPDATE)`,
    [command.machineId, command.sessionId, command.amountCents],
  );
  if (merged.rowCount) return;
  await tx.query(
    `INSERT INTO machine_commands (command_id, machine_id, session_id, player_id, type, amount_cents)
       VALUES ($1, $2, $3, $4, 'hand_pay', $5) ON CONFLICT DO NOTHING`,
    [command.commandId, command.machineId, command.sessionId, command.playerId, command.amountCents],
  );
}

/** The machine's hand pays not yet taken off its meter and written before the cash out `beforeId`, oldest first. */
export async function handPaysBefore(db: Queryable, machineId: number, beforeId: string) {
  const { rows } = await db.query<{ command_id: string }>(
    `SELECT command_id FROM machine_commands WHERE machine_id = $1 AND type = 'hand_pay' AND status = 'pending'
        AND created_at < (SELECT created_at FROM machine_commands WHERE command_id = $2) ORDER BY created_at`,
    [machineId, beforeId],
  );
  return rows.map((row) => row.command_id);
}

/** The session's hand pays still pending, locked (a cash out's booking takes them over). */
export async function lockPendingHandPays(tx: Tx, sessionId: string) {
  const { rows } = await tx.query<OutboxCommand>(
    "SELECT * FROM machine_commands WHERE session_id = $1 AND type = 'hand_pay' AND status = 'pending' ORDER BY created_at FOR UPDATE",
    [sessionId],
  );
  return rows.map((row) => ({ ...row, amount_cents: row.amount_cents === null ? null : Number(row.amount_cents) }));
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
