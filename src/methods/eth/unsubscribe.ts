import { sessionOf } from '../ws-sessions.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_unsubscribe({ subscriptions }: Pick<MethodServices, 'subscriptions'>): Handlers['eth_unsubscribe'] {
  return async ([id], ctx) => subscriptions.unsubscribe(sessionOf(ctx).subscriber, id);
}
