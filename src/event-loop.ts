/** Lets the event loop run what waits (other requests, timers, I/O callbacks) before going on. */
export const yieldToEventLoop = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
