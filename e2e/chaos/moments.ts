/**
 * Moments a kill can be timed to (kills.ts): the clients mark one just before they send a request
 * whose crash matters most: a hand pay approval (paid once or not at all), a cash in of a player
 * with a deposit limit (between the limit check and the cash in). A kill waiting for a moment is
 * let go by the first one marked.
 */
export type Moment = 'approval' | 'limitedCashIn';

export class KillMoments {
  private waiting: { kinds: readonly Moment[]; resolve: (moment: Moment | null) => void } | null = null;

  mark(moment: Moment): void {
    const w = this.waiting;
    if (!w || !w.kinds.includes(moment)) return;
    this.waiting = null;
    w.resolve(moment);
  }

  /** The next moment of these kinds, or null after `timeoutMs`. */
  next(kinds: readonly Moment[], timeoutMs: number): Promise<Moment | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        resolve(null);
      }, timeoutMs);
      this.waiting = { kinds, resolve: (moment) => (clearTimeout(timer), resolve(moment)) };
    });
  }
}
