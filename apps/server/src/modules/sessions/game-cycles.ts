/**
 * Game cycles as the cabinet reports them: each recorded once (the cabinet keeps every game in its
 * outbox and sends it again until acknowledged), in the order the machine played them, with the
 * session's counters, wagering progress, jackpot contribution and any jackpot payment in one
 * transaction; once that transaction committed (or found the game stored before) the cabinet is
 * told (`cycle_ack`); then a hand pay if the win is above the machine's limit, and the player's screen.
 *
 * A game whose transaction failed (the database died mid-insert) leaves a gap: the machine's later
 * games are held back, unacknowledged, until the cabinet sends the missing one again (its overdue
 * re-send, or its outbox after a reconnect), so the records never skip a game, and nothing that
 * books money on the records (`settled`) runs while one is missing.
 */
import { Code, type GameCycle } from '@reel/protocol';
import { AppError } from '../../lib/errors.js';
import { feedJackpots, payJackpot, publishJackpots } from '../jackpots/jackpots.js';
import { withMoney } from '../ledger/ledger-service.js';
import type { LiveSession } from './live-session.js';
import { writeCycle } from './money-commands.js';
import type { SessionKit } from './session-kit.js';

type Kit = Pick<SessionKit, 'db' | 'bus' | 'cabinets' | 'floor' | 'views' | 'lobby' | 'warn' | 'track'>;

/** A game is identified by its id and start time (the index `game_cycles_game`). */
const gameKey = (cycle: GameCycle) => `${cycle.gameId}@${Math.round(cycle.startedAtMs)}`;

/**
 * How long money waits for a missing game: longer than the cabinet waits for an acknowledgement
 * before it sends its outbox again (agent-client.ts).
 */
const GAP_WAIT_MS = 15_000;

export class GameCycles {
  /** A machine's cycles are recorded one after another, in the order it reported them. */
  private readonly queues = new Map<number, Promise<void>>();
  /** Per machine, the first game that could not be recorded (later ones wait for it). */
  private readonly gaps = new Map<number, { key: string; gameId: string }>();
  /** Resolved when the machine's gap is filled (or forgotten on a reconnect). */
  private readonly gapWaiters = new Map<number, () => void>();

  constructor(
    private readonly kit: Kit,
    private readonly handPay: (live: LiveSession, cycle: GameCycle) => Promise<void>,
  ) {}

  /** Queues a reported cycle behind the machine's earlier ones; resolves once it is recorded. */
  enqueue(machineId: number, cycle: GameCycle): Promise<void> {
    return this.chain(machineId, () => this.record(machineId, cycle));
  }

  /**
   * The machine's cabinet connected anew: it sends its whole outbox again, from its oldest game, so
   * a gap left by the old connection is filled by it (or, were the game gone from a cleared memory,
   * the meter check finds the meters off the records).
   */
  reconnected(machineId: number) {
    void this.chain(machineId, async () => this.closeGap(machineId));
  }

  /**
   * Resolves once every cycle the machine reported so far is recorded. While one of them could not
   * be, it waits for the cabinet to send it again, and rejects (40903) when it does not come: money
   * is never booked on records that miss a game.
   */
  async settled(machineId: number, waitMs = GAP_WAIT_MS) {
    const deadline = Date.now() + waitMs;
    for (;;) {
      await this.queues.get(machineId);
      const gap = this.gaps.get(machineId);
      if (!gap) return;
      const left = deadline - Date.now();
      if (left <= 0 || !(await this.gapClosed(machineId, left))) {
        throw new AppError(Code.MachineNotAvailable, 409, {}, `machine ${machineId}: game ${gap.gameId} is not recorded yet`);
      }
    }
  }

  private gapClosed(machineId: number, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      const previous = this.gapWaiters.get(machineId);
      this.gapWaiters.set(machineId, () => {
        previous?.();
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private closeGap(machineId: number) {
    this.gaps.delete(machineId);
    const wake = this.gapWaiters.get(machineId);
    this.gapWaiters.delete(machineId);
    wake?.();
  }

  private chain(machineId: number, work: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(machineId) ?? Promise.resolve()).then(work);
    this.queues.set(
      machineId,
      next.catch((error) => this.kit.warn(error, 'cycle')),
    );
    return next;
  }

  private async record(machineId: number, cycle: GameCycle) {
    const { kit } = this;
    const key = gameKey(cycle);
    const gap = this.gaps.get(machineId);
    // Held back, unacknowledged: the cabinet sends it again after the missing game.
    if (gap && gap.key !== key) return;
    const live = kit.floor.onMachine(machineId);
    // A held session was settled: games after that (there should be none) belong to nobody.
    const session = live && !live.held ? live : undefined;
    let stored: Awaited<ReturnType<typeof storeCycle>>;
    try {
      stored = await storeCycle(kit, machineId, session, cycle);
    } catch (error) {
      this.gaps.set(machineId, { key, gameId: cycle.gameId });
      throw error;
    }
    if (gap) this.closeGap(machineId);
    // Stored, now or before: the cabinet may forget it.
    kit.cabinets.acknowledgeCycle(machineId, cycle.gameId);
    if (!stored) return;
    const { machine, levels, jackpot } = stored;
    if (levels !== null) publishJackpots(kit.bus, machine.brand_id, levels);
    if (jackpot) publishJackpots(kit.bus, machine.brand_id, jackpot.levels, { machineId, paid: jackpot });
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
    // Not awaited: the hand pay's cash out waits for this machine's cycles to be recorded.
    if (handPay) kit.track(this.handPay(session, cycle), 'hand pay');
    await kit.views.pushSession(session);
  }
}

/**
 * One transaction: the game's record with its session's counters, its bet's jackpot contribution
 * and, for a jackpot game in a session, the jackpot payment. Null when the game was stored before.
 */
function storeCycle(kit: Kit, machineId: number, session: LiveSession | undefined, cycle: GameCycle) {
  return withMoney(kit, async (tx, move) => {
    const machine = await writeCycle(tx, machineId, session?.id ?? null, cycle);
    if (!machine) return null;
    const levels = cycle.betCents > 0 ? await feedJackpots(tx, machine.brand_id, cycle.betCents) : null;
    const jackpot =
      cycle.jackpotHit && session
        ? await payJackpot(tx, move, { playerId: session.playerId, machineId, sessionId: session.id, brandId: machine.brand_id, gameId: cycle.gameId })
        : null;
    return { machine, levels, jackpot };
  });
}
