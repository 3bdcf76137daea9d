/**
 * The operator's actions on a machine, each with a reason and one audit row: send the player away
 * (QUIT_REQUEST), cash the session out, take the machine out of service and back, emergency stop
 * and release. A state change is written with its audit row in one transaction; an action on the
 * live session (kick, cash out) is audited in its own transaction just before it runs.
 */
import { Code } from '@reel/protocol';
import { withTransaction, type Db, type Tx } from '../../db/pool.js';
import { AppError } from '../../lib/errors.js';
import type { StaffActor } from '../operator-actions/actor.js';
import { appendAudit } from '../audit/audit-log.js';
import { requireReason } from '../audit/audit-actor.js';
import type { SessionManager } from '../sessions/session-manager.js';
import { lockServiceColumns, setEmergencyStop, setOutOfService } from './machine-service.js';

type FloorSessions = Pick<SessionManager, 'isHeld' | 'kickByStaff' | 'cashOutByStaff' | 'publishMachine' | 'sendEmergencyStop'>;

export class FloorActions {
  constructor(
    private readonly deps: {
      db: Db;
      /**
       * This server's play sessions; absent on a cluster server (sessions run in the owner's room
       * there, and the console's floor actions are not relayed to it yet: docs/operator.md).
       */
      sessions: () => FloorSessions | undefined;
      /** A machine changed: the staff channel pushes it. */
      changed: (machineId: number) => void;
    },
  ) {}

  async kick(staff: StaffActor, machineId: number, reasonText: string | undefined) {
    const reason = requireReason(reasonText);
    this.requireSession(machineId);
    await this.audited(staff, 'machine.kick', machineId, reason, async () => ({ before: null, after: null }));
    const playerId = await this.sessions.kickByStaff(machineId);
    this.deps.changed(machineId);
    return { playerId };
  }

  async cashOut(staff: StaffActor, machineId: number, reasonText: string | undefined) {
    const reason = requireReason(reasonText);
    this.requireSession(machineId);
    await this.audited(staff, 'machine.cash_out', machineId, reason, async () => ({ before: null, after: null }));
    const playerId = await this.sessions.cashOutByStaff(machineId);
    this.deps.changed(machineId);
    return { playerId };
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
    const delivered = this.sessions.sendEmergencyStop(machineId, stop ? { reason } : null);
    await this.sessions.publishMachine(machineId);
    this.deps.changed(machineId);
    return { delivered };
  }

  private get sessions(): FloorSessions {
    const sessions = this.deps.sessions();
    if (!sessions) throw new AppError(Code.MachineNoAnswer, 503, {}, 'Floor actions are not available on a cluster server');
    return sessions;
  }

  private requireSession(machineId: number) {
    if (!this.sessions.isHeld(machineId)) throw new AppError(Code.NoOpenSession, 404);
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
      await appendAudit(tx, { actor: staff.actor, action, target: `machine:${machineId}`, before, after, reason });
    });
  }
}
