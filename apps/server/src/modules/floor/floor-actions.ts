/**
 * The operator's actions on a machine, each with a reason and its audit rows: send the player away
 * (QUIT_REQUEST), cash the session out, take the machine out of service and back, emergency stop
 * and release. A state change is written with its audit row in one transaction; an action on the
 * live session (kick, cash out) records its attempt before it runs and its outcome after.
 */
import { Code } from '@reel/protocol';
import { withTransaction, type Db, type Tx } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import type { StaffActor } from '../operator-actions/actor.js';
import { appendAudit } from '../audit/audit-log.js';
import { requireReason } from '../audit/audit-actor.js';
import type { SessionManager } from '../sessions/session-manager.js';
import { lockServiceColumns, setEmergencyStop, setOutOfService } from './machine-service.js';

/** The machine's session manager here, or in a cluster its shard owner's over the bus (cluster/floor-relay.ts). */
type Relayable<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => R | Promise<Awaited<R>> : never };
export type FloorSessions = Relayable<Pick<SessionManager, 'isHeld' | 'kickByStaff' | 'cashOutByStaff' | 'publishMachine' | 'sendEmergencyStop' | 'staffVideoGrant'>>;

export class FloorActions {
  constructor(
    private readonly deps: {
      db: Db;
      /** This server's play sessions, or on a cluster server the relay to each machine's shard owner. */
      sessions: () => FloorSessions;
      /** A machine changed: the staff channel pushes it. */
      changed: (machineId: number) => void;
      /** A failed action's outcome row could not be written (the action's own error still answers). */
      warn: (error: unknown) => void;
    },
  ) {}

  /** Staff send the machine's player away (QUIT_REQUEST; the session waits in grace, credits kept). */
  kick(staff: StaffActor, machineId: number, reasonText: string | undefined) {
    return this.onSession(staff, 'machine.kick', machineId, reasonText, (sessions) => sessions.kickByStaff(machineId));
  }

  /** Staff cash the machine's session out to the player's wallet (the player's own cash out road). */
  cashOut(staff: StaffActor, machineId: number, reasonText: string | undefined) {
    return this.onSession(staff, 'machine.cash_out', machineId, reasonText, (sessions) => sessions.cashOutByStaff(machineId));
  }

  async setService(staff: StaffActor, machineId: number, inService: boolean, reasonText: string | undefined) {
    const reason = requireReason(reasonText);
    await this.audited(staff, inService ? 'machine.in_service' : 'machine.out_of_service', machineId, reason, async (tx, before) => {
      const outOfService = inService ? null : reason;
      await setOutOfService(tx, machineId, outOfService);
      return { before: { outOfService: before.out_of_service }, after: { outOfService } };
    });
    await this.sessions.publishMachine(machineId);
    this.deps.changed(machineId);
  }

  /**
   * Stops the machine (the cabinet refuses every command until released) or releases it. The stop
   * is recorded first, so a cabinet away now gets it when it authenticates again.
   */
  async emergencyStop(staff: StaffActor, machineId: number, stopped: boolean, reasonText: string | undefined) {
    const reason = requireReason(reasonText);
    const stop = stopped ? { reason, at: new Date().toISOString(), by: staff.username } : null;
    await this.audited(staff, stopped ? 'machine.emergency_stop' : 'machine.emergency_release', machineId, reason, async (tx, before) => {
      await setEmergencyStop(tx, machineId, stop);
      return { before: { emergencyStop: before.emergency_stop }, after: { emergencyStop: stop } };
    });
    const delivered = await this.sessions.sendEmergencyStop(machineId, stop ? { reason } : null);
    await this.sessions.publishMachine(machineId);
    this.deps.changed(machineId);
    return { delivered };
  }

  private get sessions(): FloorSessions {
    return this.deps.sessions();
  }

  /**
   * An action on the live session. Neither writes a row of its own in one transaction (a cash out
   * runs through the cabinet in steps, a kick closes a socket), so the audit row cannot share one:
   * the attempt is recorded first (`after: { outcome: 'requested' }`), then its outcome in a second
   * row `<action>.outcome` naming the attempt's seq: `done` with the player, or `failed` with the
   * code. A crash between them leaves an attempt with no outcome, never a claim of an action that
   * failed (docs/spec-decisions.md).
   */
  private async onSession(
    staff: StaffActor,
    action: string,
    machineId: number,
    reasonText: string | undefined,
    run: (sessions: FloorSessions) => Promise<number | null>,
  ) {
    const reason = requireReason(reasonText);
    const sessions = this.sessions;
    if (!(await sessions.isHeld(machineId))) throw new AppError(Code.NoOpenSession, 404);
    const attempt = await this.audited(staff, action, machineId, reason, async () => ({ before: null, after: { outcome: 'requested' } }));
    const outcome = (after: object) =>
      withTransaction(this.deps.db, (tx) =>
        appendAudit(tx, { actor: staff.actor, action: `${action}.outcome`, target: `machine:${machineId}`, before: { attempt: attempt.seq }, after, reason }),
      );
    let playerId: number | null;
    try {
      playerId = await run(sessions);
    } catch (error) {
      await outcome({ outcome: 'failed', code: error instanceof AppError ? error.code : null }).catch(this.deps.warn);
      throw error;
    }
    await outcome({ outcome: 'done', playerId });
    this.deps.changed(machineId);
    return { playerId };
  }

  /** One transaction: the machine's row locked (404 when none), the change, its audit row. */
  private audited(
    staff: StaffActor,
    action: string,
    machineId: number,
    reason: string,
    change: (tx: Tx, before: NonNullable<Awaited<ReturnType<typeof lockServiceColumns>>>) => Promise<{ before: unknown; after: unknown }>,
  ) {
    return withTransaction(this.deps.db, async (tx) => {
      const row = await lockServiceColumns(tx, machineId);
      if (!row) throw new AppError(Code.NotFound, 404);
      const { before, after } = await change(tx, row);
      return appendAudit(tx, { actor: staff.actor, action, target: `machine:${machineId}`, before, after, reason });
    });
  }
}
