/** A tiny typed event emitter (the browser has no node:events). */
type Handler = (...args: unknown[]) => void;

export class Emitter<E extends Record<string, unknown[]>> {
  private readonly handlers = new Map<keyof E, Set<Handler>>();

  on<K extends keyof E>(event: K, fn: (...args: E[K]) => void): () => void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    const h = fn as unknown as Handler;
    set.add(h);
    return () => set.delete(h);
  }

  protected emit<K extends keyof E>(event: K, ...args: E[K]): void {
    for (const fn of this.handlers.get(event) ?? []) fn(...args);
  }
}
