/**
 * Game cycles as the cabinet reports them: each recorded once (the cabinet re-sends its last games
 * after a reconnect), in the order the machine played them, with the session's counters and
 * wagering progress in one transaction; then jackpots, a hand pay if the win is above the
 * machine's limit, and the player's screen.
 */
import type { GameCycle } from '@reel/protocol';
import { withTransaction } from '../../db/pool.js';
import { growJackpots, payJackpot } from '../jackpots/jackpots.js';
import type { LiveSession } from './live-session.js';
import { writeCycle } from './money-commands.js';
import type { SessionKit } from './session-kit.js';

type Kit = Pick<SessionKit, 'db' | 'bus' | 'floor' | 'views' | 'lobby' | 'warn' | 'track'>;

export class GameCycles {
  /** A machine's cycles are recorded one after another, in the order it reported them. */
  private readonly queues = new Map<number, Promise<void>>();

  constructor(
    private readonly kit: Kit,
    private readonly handPay: (live: LiveSession, cycle: GameCycle) => Promise<void>,
  ) {}

  /** Queues a reported cycle behind the machine's earlier ones; resolves once it is recorded. */
  enqueue(machineId: number, cycle: GameCycle): Promise<void> {
    const previous = this.queues.get(machineId) ?? Promise.resolve();
    const next = previous.then(() => this.record(machineId, cycle));
    this.queues.set(
      machineId,
      next.catch((error) => this.kit.warn(error, 'cycle')),
    );
    return next;
  }

  /** Resolves once every cycle the machine reported so far is recorded. */
  async settled(machineId: number) {
    await this.queues.get(machineId);
  }

  private async record(machineId: number, cycle: GameCycle) {
    const { kit } = this;
    const live = kit.floor.onMachine(machineId);
    // A held session was settled: games after that (there should be none) belong to nobody.
    const session = live && !live.held ? live : undefined;
    const machine = await withTransaction(kit.db, (tx) => writeCycle(tx, machineId, session?.id ?? null, cycle));
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
    if (handPay) kit.track(this.handPay(session, cycle), 'hand pay');
    await kit.views.pushSession(session);
  }
}
