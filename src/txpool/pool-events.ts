/**
 * The pool's subscribers (the miner, filters, subscriptions, the terminal): told synchronously of
 * each transaction added and removed. A subscriber's failure never affects the pool; it is reported.
 */
import type { PoolEvents } from './types.js';

type Listeners = { [E in keyof PoolEvents]: Set<PoolEvents[E]> };

export class PoolEventHub {
  private readonly listeners: Listeners = { added: new Set(), removed: new Set() };

  constructor(private readonly onListenerError?: (error: unknown) => void) {}

  /** Subscribe; returns the unsubscribe function. Listeners run synchronously and must not throw. */
  on<E extends keyof PoolEvents>(event: E, listener: PoolEvents[E]): () => void {
    (this.listeners[event] as Set<PoolEvents[E]>).add(listener);
    return () => this.off(event, listener);
  }

  off<E extends keyof PoolEvents>(event: E, listener: PoolEvents[E]): void {
    (this.listeners[event] as Set<PoolEvents[E]>).delete(listener);
  }

  emit<E extends keyof PoolEvents>(event: E, ...args: Parameters<PoolEvents[E]>): void {
    for (const listener of this.listeners[event]) {
      try {
        (listener as (...a: Parameters<PoolEvents[E]>) => void)(...args);
      } catch (error) {
        this.onListenerError?.(error);
      }
    }
  }
}
