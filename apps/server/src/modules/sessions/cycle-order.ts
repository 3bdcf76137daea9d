/**
 * The order of each machine's game records: its reported cycles are recorded one after another, in
 * the order it reported them (game-cycles.ts runs the recording), and a game whose transaction
 * failed leaves a gap that holds the later ones back until the cabinet sends it again.
 *
 * Money booked on the records (a cash out's booking in command-outbox.ts, the meter check) asks
 * `settled` first, so it never books on records that miss a game. Kept apart from the recording so
 * that both can ask it without calling each other.
 */
import { Code } from '@reel/protocol';
import { AppError } from '../../lib/errors.js';

/**
 * How long money waits for a missing game: longer than the cabinet waits for an acknowledgement
 * before it sends its outbox again (agent-client.ts).
 */
const GAP_WAIT_MS = 15_000;

/** The first game of a machine that could not be recorded. */
interface Gap {
  key: string;
  gameId: string;
}

export class CycleOrder {
  /** A machine's cycles are recorded one after another, in the order it reported them. */
  private readonly queues = new Map<number, Promise<void>>();
  /** Per machine, the first game that could not be recorded (later ones wait for it). */
  private readonly gaps = new Map<number, Gap>();
  /** Resolved when the machine's gap is filled (or forgotten on a reconnect). */
  private readonly gapWaiters = new Map<number, () => void>();

  constructor(private readonly warn: (error: unknown, where: string) => void) {}

  /** Runs `work` after the machine's earlier cycle work; resolves once it ran. */
  chain(machineId: number, work: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(machineId) ?? Promise.resolve()).then(work);
    this.queues.set(
      machineId,
      next.catch((error) => this.warn(error, 'cycle')),
    );
    return next;
  }

  gapOf(machineId: number): Gap | undefined {
    return this.gaps.get(machineId);
  }

  /** The game could not be recorded: the machine's later games wait for it. */
  openGap(machineId: number, gap: Gap) {
    this.gaps.set(machineId, gap);
  }

  closeGap(machineId: number) {
    this.gaps.delete(machineId);
    const wake = this.gapWaiters.get(machineId);
    this.gapWaiters.delete(machineId);
    wake?.();
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
   * True once the recording of every cycle the machine reported so far has run (stored, or left as
   * a gap): what a play command waits for before the server asks whether it may go. False when
   * that takes longer than `timeoutMs` (a queue of games replayed after a failover).
   */
  async recorded(machineId: number, timeoutMs: number): Promise<boolean> {
    const queue = this.queues.get(machineId);
    if (!queue) return true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const done = await Promise.race([queue.then(() => true as const), late]);
    clearTimeout(timer);
    return done;
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
}
