/**
 * Game cycles as the cabinet reports them: each recorded once (the cabinet keeps every game in its
 * outbox and sends it again until acknowledged), in the order the machine played them, with the
 * session's counters, wagering progress, jackpot contribution and any jackpot payment in one
 * transaction. Once that transaction committed, the machine's hand pay lock is set and autoplay is
 * stopped if this game ends it (autoplay-watch.ts); only then is the cabinet told (`cycle_ack`, also
 * for a game found stored before), since it starts no paid game before that; then the player's screen.
 *
 * A win at or above the hand pay limit writes its `hand_pay` command in the game's own transaction:
 * from that commit the machine is locked (no play, no cash in, a cash out waits behind it), and a
 * restart rebuilds the lock from the row. The command is sent once the cabinet can run it: at once,
 * or, when the win started free spins (the cabinet refuses a cash out in its bonus round), after the
 * round's last free spin is recorded (docs/spec-decisions.md, "Hand pay and free spins").
 *
 * A game whose transaction failed (the database died mid-insert) leaves a gap (cycle-order.ts): the
 * machine's later games are held back, unacknowledged, until the cabinet sends the missing one
 * again (its overdue re-send, or its outbox after a reconnect), so the records never skip a game,
 * and nothing that books money on the records (`settled`) runs while one is missing.
 */
import { Code, SessionAction, type GameCycle, type GameCycleView } from '@reel/protocol';
import { feedJackpots, payJackpot, publishJackpots } from '../jackpots/jackpots.js';
import { withMoney } from '../ledger/ledger-service.js';
import { publishPublicPlay } from '../spectators/public-play.js';
import type { AutoplayWatch } from './autoplay-watch.js';
import type { CommandOutbox } from './command-outbox.js';
import type { CycleOrder } from './cycle-order.js';
import type { LiveSession } from './live-session.js';
import { insertHandPay } from './command-repository.js';
import { writeCycle } from './money-commands.js';
import { info } from './session-views.js';
import type { SessionBase } from './session-base.js';

interface CycleDeps extends SessionBase {
  /** The order and gaps of each machine's records. */
  order: CycleOrder;
  /** Sends the machine's pending commands (a hand pay) once its bonus round is over. */
  outbox: Pick<CommandOutbox, 'flush'>;
  /** HAND_PAY_LIMIT (the machine's own limit may be lower). */
  handPayLimitCents: () => number;
  /** A game autoplay played may cross a limit or the reality check's time: autoplay stops there. */
  autoplay: Pick<AutoplayWatch, 'afterCycle'>;
  track: (work: Promise<unknown>, where: string) => void;
}

/** The hand pay a game's win wrote (one per game: its id and start time identify it). */
export const handPayCommandId = (machineId: number, cycle: GameCycle) => `hp-${machineId}-${cycle.gameId}-${Math.round(cycle.startedAtMs)}`;

/** The player's view of a game of their session. */
export function cycleView(session: LiveSession, cycle: GameCycle, handPay: boolean): GameCycleView {
  // The cabinet got the spin as `<session id>:<client's command id>` (session-play.ts).
  const clientCommandId = cycle.commandId?.startsWith(`${session.id}:`) ? cycle.commandId.slice(session.id.length + 1) : undefined;
  return {
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
  };
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
    let stored: Awaited<ReturnType<typeof storeCycle>>;
    try {
      stored = await storeCycle(kit, machineId, session, cycle);
    } catch (error) {
      kit.order.openGap(machineId, { key, gameId: cycle.gameId });
      throw error;
    }
    if (gap) kit.order.closeGap(machineId);
    if (stored) {
      // Locked from this commit on (before anything else of this machine runs).
      if (stored.handPay && session) kit.floor.lockForHandPay(machineId, cycle.winCents);
      // Before the acknowledgement: the cabinet starts no paid game until it has it (machine-play.ts),
      // so autoplay never plays a game past the player's stop, a limit or a hand pay.
      if (session) await kit.autoplay.afterCycle(session, cycle).catch((error: unknown) => kit.warn(error, 'autoplay stop'));
    }
    // Stored, now or before: the cabinet may forget it.
    kit.cabinets.acknowledgeCycle(machineId, cycle.gameId);
    if (!stored) return;
    const { machine, levels, jackpot, handPay } = stored;
    if (levels !== null) publishJackpots(kit.bus, machine.brand_id, levels);
    if (jackpot) publishJackpots(kit.bus, machine.brand_id, jackpot.levels, { machineId, paid: jackpot });
    // A win may make the machine hot in the lobby (the only lobby change a game makes).
    if (cycle.winCents > 0) kit.track(kit.lobby.publish(machineId), 'lobby status');
    // Spectators see every game as it is recorded, without the player's credits or name.
    publishPublicPlay(kit.bus, machineId, cycle);
    if (!session) return;
    session.lastActivityMs = Date.now();
    session.lastCountSent = null;
    kit.floor.send(session.playerId, 'cycle', cycleView(session, cycle, handPay));
    if (handPay) kit.floor.send(session.playerId, 'info', info(Code.HandPayWaiting, { amount: cycle.winCents }, SessionAction.HandPay));
    // Not awaited: the hand pay's cash out waits for this machine's cycles to be recorded. In a
    // bonus round the cabinet would refuse it (busy): it goes after the round's last free spin.
    if (kit.floor.handPayLock(machineId) !== undefined && cycle.freeSpinsLeft === 0) kit.track(kit.outbox.flush(machineId), 'hand pay');
    await kit.views.pushSession(session);
  }
}

/**
 * One transaction: the game's record with its session's counters, its bet's jackpot contribution,
 * a hand pay command for a win at or above the limit and, for a jackpot game in a session, the
 * jackpot payment. Null when the game was stored before.
 */
function storeCycle(kit: Pick<CycleDeps, 'db' | 'bus' | 'handPayLimitCents'>, machineId: number, session: LiveSession | undefined, cycle: GameCycle) {
  return withMoney(kit, async (tx, move) => {
    const machine = await writeCycle(tx, machineId, session?.id ?? null, cycle);
    if (!machine) return null;
    const handPay = Boolean(session) && (cycle.winCents > machine.handpay_limit_cents || cycle.winCents >= kit.handPayLimitCents());
    if (handPay && session) {
      await insertHandPay(tx, { commandId: handPayCommandId(machineId, cycle), machineId, sessionId: session.id, playerId: session.playerId, amountCents: cycle.winCents });
    }
    const levels = cycle.betCents > 0 ? await feedJackpots(tx, machine.brand_id, cycle.betCents) : null;
    const jackpot =
      cycle.jackpotHit && session
        ? await payJackpot(tx, move, { playerId: session.playerId, machineId, sessionId: session.id, brandId: machine.brand_id, gameId: cycle.gameId })
        : null;
    return { machine, levels, jackpot, handPay };
  });
}
