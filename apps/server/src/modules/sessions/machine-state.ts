/**
 * The machine's runtime state in the `machines` row, and the only file that writes it: the
 * cabinet's last state (the lobby reads it), the memory id its meters were last verified with, and
 * the meter fault kept for the operator. (The catalogue columns are the operator's:
 * ../machines/catalog.ts.)
 */
import type { Queryable } from '../../db/pool.js';

export async function setCabinetState(db: Queryable, machineId: number, state: string) {
  await db.query('UPDATE machines SET cabinet_state = $2 WHERE id = $1', [machineId, state]);
}

/** The cabinet's memory agreed with the records. */
export async function setMemoryId(db: Queryable, machineId: number, memoryId: string) {
  await db.query('UPDATE machines SET memory_id = $2 WHERE id = $1', [machineId, memoryId]);
}

/** The meters did not follow from the records: what was found, for the operator. */
export async function setMeterFault(tx: Queryable, machineId: number, fault: object) {
  await tx.query('UPDATE machines SET meter_fault = $2 WHERE id = $1', [machineId, JSON.stringify(fault)]);
}
