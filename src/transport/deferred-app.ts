// The node's request handlers, handed to the HTTP server before they exist: the port is taken
// first, so a port in use stops the start before anything is written, and requests that arrive
// while the node is being assembled wait for it.
import type { Dispatcher } from '../rpc/dispatch.js';
import { serverError } from '../rpc/errors.js';
import type { UpgradeHandler } from './http.js';

export interface App {
  invoke: Dispatcher;
  onUpgrade: UpgradeHandler;
  health: () => Promise<unknown>;
}

export class DeferredApp implements App {
  private app?: App;
  private settle!: { resolve(app: App): void; reject(error: unknown): void };
  private readonly ready = new Promise<App>((resolve, reject) => (this.settle = { resolve, reject }));

  constructor() {
    // A start that fails has no requests waiting, or answers them below; never an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  /** The node is assembled: requests go to `app` from now on. */
  resolve(app: App): void {
    this.app = app;
    this.settle.resolve(app);
  }

  /** The start failed: requests that waited are answered so. */
  fail(): void {
    this.settle.reject(serverError('the node failed to start'));
  }

  invoke: Dispatcher = (method, params, ctx) => (this.app !== undefined ? this.app.invoke(method, params, ctx) : this.ready.then((app) => app.invoke(method, params, ctx)));

  onUpgrade: UpgradeHandler = (req, socket, head) => {
    if (this.app !== undefined) return this.app.onUpgrade(req, socket, head);
    this.ready.then(
      (app) => app.onUpgrade(req, socket, head),
      () => socket.destroy(),
    );
  };

  health = (): Promise<unknown> => (this.app !== undefined ? this.app.health() : Promise.resolve({ ok: false, error: 'starting' }));
}
