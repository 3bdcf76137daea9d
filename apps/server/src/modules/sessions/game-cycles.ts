/**
 * Game cycles as the cabinet reports them: each recorded once (the cabinet keeps every game in its
 * outbox and sends it again until acknowledged), in the order the machine played them, with the
 * session's counters and wagering progress in one transaction; once that transaction committed
 * (or found the game stored before) the cabinet is told (`cycle_ack`); then jackpots, a hand pay
 * if the win is above the machine's limit, and the player's screen.
 *
 * A game whose transaction failed (the database died mid-insert) leaves a gap (cycle-order.ts): the
 * machine's later games are held back, unacknowledged, until the cabinet sends the missing one
 * again (its overdue re-send, or its outbox after a reconnect), so the records never skip a game,
 * and nothing that books money on the records (`settled`) runs while one is missing.
 */
import type { GameCycle } from '@reel/protocol';
import { withTransaction } from '../../db/pool.js';
import { growJackpots, payJackpot } from '../jackpots/jackpots.js';
import type { CommandOutbox } from './command-outbox.js';
import type { CycleOrder } from './cycle-order.js';
import { writeCycle } from './money-commands.js';
import type { SessionBase } from './session-base.js';

interface CycleDeps extends Omit<SessionBase, 'warn'> {
  /** The order and gaps of each machine's records. */
  order: CycleOrder;
  /** A win above the machine's limit becomes a hand pay command. */
  outbox: Pick<CommandOutbox, 'handPay'>;
  track: (work: Promise<unknown>, where: string) => void;
}

/** A game is identified by its id and start time (the index `game_cycles_game`). */
const gameKey = (cycle: GameCycle) => `${cycle.gameId}@${Math.round(cycle.startedAtMs)}`;

export class GameCycles {
  constructor(private readonly kit: CycleDeps) {}

  /** Queues a reported cycle behind the machine's earlier ones; resolves once it is recorded. */
  enqueue(machineId: number, cycle: GameCycle): Promise<void> {
    return this.kit.order.chain(machineId, () => this.record(machineId, cycle));
  }

  private async record(machineId: number, cycle: GameCycle) {
    const { kit } = this;
    const key = gameKey(cycle);
    const gap = kit.order.gapOf(machineId);
    // Held back, unacknowledged: the cabinet sends it again after the missing game.
    if (gap && gap.key !== key) return;
    const live = kit.floor.onMachine(machineId);
    // A held session was settled: games after that (there should be none) belong to nobody.
    const session = live && !live.held ? live : undefined;
    let machine: Awaited<ReturnType<typeof writeCycle>>;
    try {
      machine = await withTransaction(kit.db, (tx) => writeCycle(tx, machineId, session?.id ?? null, cycle));
    } catch (error) {
      kit.order.openGap(machineId, { key, gameId: cycle.gameId });
      throw error;
    }
    if (gap) kit.order.closeGap(machineId);
    // Stored, now or before: the cabinet may forget it.
    kit.cabinets.acknowledgeCycle(machineId, cycle.gameId);
    if (!machine) return;
    if (cycle.betCents > 0) await growJackpots(kit, machine.brand_id, cycle.betCents);
    // A win may make the machine hot in the lobby (the only lobby change a game makes).
    if (cycle.winCents > 0) kit.track(kit.lobby.publish(machineId), 'lobby status');
    if (!session) return;
    session.lastActivityMs = Date.now();
    session.lastCountSent = null;
    const handPay = cycle.winCents > machine.handpay_limit_cents;
    // The cabinet got the spin as `<session id>:<client's command id>` (session-play.ts).
    const clientCommandId = cycle.commandId?.startsWith(`${session.id}:`) ? cycle.commandId.slice(session.id.length + 1) : undefined;
    kit.floor.send(session.playerId, 'cycle', {
      gameId: cycle.gameId,
      ...(clientCommandId ? { commandId: clientCommandId } : {}),
      betCents: cycle.betCents,
      winCents: cycle.winCents,
      symbols: cycle.symbols,
      creditsBeforeCents: cycle.creditsBeforeCents,
      creditsAfterCents: cycle.creditsAfterCents,
      freeSpin: cycle.freeSpin,
      freeSpinsLeft: cycle.freeSpinsLeft,
      jackpotHit: cycle.jackpotHit,
      handPay,
    });
    if (cycle.jackpotHit) await payJackpot(kit, { playerId: session.playerId, machineId, sessionId: session.id, brandId: machine.brand_id, gameId: cycle.gameId });
    // Not awaited: the hand pay's cash out waits for this machine's cycles to be recorded.
    if (handPay) kit.track(kit.outbox.handPay(session, cycle), 'hand pay');
    await kit.views.pushSession(session);
  }
}
