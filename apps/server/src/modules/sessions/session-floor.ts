/**
 * The open sessions and the players' live game connections, in memory: who plays which machine,
 * and the one socket each player's game messages go to.
 */
import { Code, formatCents } from '@reel/protocol';
import { AppError } from '../../lib/errors.js';
import { liveSessionFromRow, type LiveSession, type SessionRow } from './live-session.js';
import type { GameConnection } from './types.js';

type GameEvent = Parameters<GameConnection['send']>[0];

export class SessionFloor {
  readonly sessions = new Map<string, LiveSession>();
  private readonly connections = new Map<number, { conn: GameConnection; sessionId: string }>();
  /** Machines locked by a hand pay waiting for staff, with the amount waiting. */
  private readonly handPayLocks = new Map<number, number>();

  remember(row: SessionRow, machineName: string): LiveSession {
    const live = liveSessionFromRow(row, machineName);
    this.sessions.set(live.id, live);
    return live;
  }

  /** Still the floor's session (not closed and forgotten meanwhile). */
  holds(live: LiveSession) {
    return this.sessions.get(live.id) === live;
  }

  find(match: (live: LiveSession) => boolean): LiveSession | undefined {
    for (const live of this.sessions.values()) if (match(live)) return live;
    return undefined;
  }

  onMachine(machineId: number) {
    return this.find((s) => s.machineId === machineId);
  }

  /** The player's session on this machine; 40404 unless the player holds it. */
  playerSessionOn(playerId: number, machineId: number): LiveSession {
    const live = this.find((s) => s.playerId === playerId && s.machineId === machineId);
    if (!live) throw new AppError(Code.NoOpenSession, 404);
    return live;
  }

  sessionOf(playerId: number): LiveSession {
    const entry = this.connections.get(playerId);
    const live = entry ? this.sessions.get(entry.sessionId) : this.find((s) => s.playerId === playerId);
    if (!live) throw new AppError(Code.NoOpenSession, 404);
    return live;
  }

  /** The player's session, when it can take play and money commands now. */
  activeSessionOf(playerId: number): LiveSession {
    const live = this.sessionOf(playerId);
    if (live.held) throw new AppError(Code.MachineMalfunction, 409, { amount: formatCents(live.held.amountCents) });
    if (live.status === 'cashing_out' || live.closing) throw new AppError(Code.SessionTerminated, 409);
    const handPayCents = this.handPayLocks.get(live.machineId);
    if (handPayCents !== undefined) throw new AppError(Code.HandPayWaiting, 409, { amount: formatCents(handPayCents) });
    return live;
  }

  /** A hand pay waits for staff: no play or credits on the machine until it is paid. */
  lockForHandPay(machineId: number, amountCents: number) {
    this.handPayLocks.set(machineId, (this.handPayLocks.get(machineId) ?? 0) + amountCents);
  }

  /** The amount a hand pay locks the machine with; undefined when none does. */
  handPayLock(machineId: number): number | undefined {
    return this.handPayLocks.get(machineId);
  }

  /** The machine's locks as the records hold them (at start, and after staff paid one). */
  setHandPayLocks(locks: Map<number, number>, machineId?: number) {
    if (machineId === undefined) this.handPayLocks.clear();
    else this.handPayLocks.delete(machineId);
    for (const [id, cents] of locks) if (machineId === undefined || id === machineId) this.handPayLocks.set(id, cents);
  }

  /** The player did something: countdowns start over. */
  touch(live: LiveSession) {
    live.lastActivityMs = Date.now();
    live.lastCountSent = null;
  }

  connectionOf(playerId: number) {
    return this.connections.get(playerId);
  }

  isConnected(playerId: number) {
    return this.connections.has(playerId);
  }

  connect(playerId: number, conn: GameConnection, sessionId: string) {
    this.connections.set(playerId, { conn, sessionId });
  }

  /** Forgets the player's connection if it is still `conn`; answers whether it was. */
  release(playerId: number, conn: GameConnection) {
    const entry = this.connections.get(playerId);
    if (!entry || entry.conn !== conn) return undefined;
    this.connections.delete(playerId);
    return entry;
  }

  /** The session is closed: it leaves the floor and its player's socket is told so. */
  forget(live: LiveSession) {
    this.sessions.delete(live.id);
    const entry = this.connections.get(live.playerId);
    if (entry?.sessionId === live.id) {
      entry.conn.send('closed', { reason: 'closed', code: Code.Success });
      this.connections.delete(live.playerId);
    }
  }

  send<E extends GameEvent>(playerId: number, event: E, data: Parameters<GameConnection['send']>[1] & object) {
    this.connections.get(playerId)?.conn.send(event, data as never);
  }

  sendMoneyTransfer(playerId: number, active: boolean) {
    this.send(playerId, 'moneyTransfer', { active });
  }

  /** Server shutdown: every player's socket is closed (they reconnect to the next server). */
  closeAll() {
    for (const { conn } of this.connections.values()) conn.close(1001, 'server shutting down');
    this.connections.clear();
  }
}
