/**
 * Work that must run one after another per key (per machine: its money commands, its reported game
 * cycles, its lobby status reads), while different keys run side by side. A failed work does not
 * stop the queue: the next one of the key runs all the same.
 */
export class KeyedQueue<K> {
  /** Per key, the last work queued, settled (never rejects); gone once the key's queue is empty. */
  private readonly tails = new Map<K, Promise<void>>();

  /** `onError` hears every failed work once, whether or not its caller awaits it. */
  constructor(private readonly onError?: (error: unknown) => void) {}

  /** Runs `work` once every earlier work of `key` has settled; answers what `work` answers. */
  run<T>(key: K, work: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(work);
    const tail = result.then(
      () => {},
      (error: unknown) => this.onError?.(error),
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every work queued on `key` so far has settled. */
  idle(key: K): Promise<void> {
    return this.tails.get(key) ?? Promise.resolve();
  }
}
