/**
 * The only writer of the machine's service columns the console sets: `out_of_service` (why staff
 * took it out) and `emergency_stop` ({ reason, at, by }). Each change runs in the caller's
 * transaction, beside its audit row; answers the value before, or undefined for no such machine.
 */
import type { Queryable } from '../../db/pool.js';

interface EmergencyStopRecord {
  reason: string;
  at: string;
  by: string;
}

interface ServiceColumns {
  out_of_service: string | null;
  emergency_stop: EmergencyStopRecord | null;
}

/** The machine's row locked for the change; undefined when there is no such (enabled) machine. */
export async function lockServiceColumns(tx: Queryable, machineId: number): Promise<ServiceColumns | undefined> {
  const { rows } = await tx.query<ServiceColumns>(
    'SELECT out_of_service, emergency_stop FROM machines WHERE id = $1 AND enabled FOR UPDATE',
    [machineId],
  );
  return rows[0];
}

export async function setOutOfService(tx: Queryable, machineId: number, reason: string | null) {
  await tx.query('UPDATE machines SET out_of_service = $2 WHERE id = $1', [machineId, reason]);
}

export async function setEmergencyStop(tx: Queryable, machineId: number, stop: EmergencyStopRecord | null) {
  await tx.query('UPDATE machines SET emergency_stop = $2 WHERE id = $1', [machineId, stop === null ? null : JSON.stringify(stop)]);
}

/** Every machine with an emergency stop in force (sent again to a cabinet that reconnects). */
export async function emergencyStopOf(db: Queryable, machineId: number): Promise<EmergencyStopRecord | null> {
  const { rows } = await db.query<{ emergency_stop: EmergencyStopRecord | null }>('SELECT emergency_stop FROM machines WHERE id = $1', [machineId]);
  return rows[0]?.emergency_stop ?? null;
}
