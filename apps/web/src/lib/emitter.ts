/** Event name → listener arguments, e.g. `{ status: [Status]; error: [Error] }`. */
type EventMap<E> = { [K in keyof E]: unknown[] };

/** A small typed event emitter: the browser has no node:events, and the connections need only this. */
export class Emitter<E extends EventMap<E>> {
  private readonly listeners: { [K in keyof E]?: Set<(...args: E[K]) => void> } = {};

  /** Returns the function that removes the listener again. */
  on<K extends keyof E>(event: K, listener: (...args: E[K]) => void): () => void {
    const set = (this.listeners[event] ??= new Set());
    set.add(listener);
    return () => this.off(event, listener);
  }

  off<K extends keyof E>(event: K, listener: (...args: E[K]) => void): void {
    this.listeners[event]?.delete(listener);
  }

  emit<K extends keyof E>(event: K, ...args: E[K]): void {
    for (const listener of this.listeners[event] ?? []) listener(...args);
  }
}
