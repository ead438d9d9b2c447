import { sessionOf } from '../ws-sessions.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_subscribe({ subscriptions }: Pick<MethodServices, 'subscriptions'>): Handlers['eth_subscribe'] {
  return async ([kind, options], ctx) => subscriptions.subscribe(sessionOf(ctx), kind, options);
}
