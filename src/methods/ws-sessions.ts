import type { SubscriberSession } from '../filters/subscriptions.js';
import type { CallContext } from '../rpc/dispatch.js';
import { notificationsNotSupported, serverError } from '../rpc/errors.js';

/**
 * The WebSocket session of the call, or -32601 as geth answers subscriptions over HTTP. A
 * connection that ended while the call ran gets nothing registered for it (nor any reply).
 */
export function sessionOf(ctx: CallContext): SubscriberSession {
  const session = ctx.connection as SubscriberSession | undefined;
  if (ctx.transport !== 'ws' || session === undefined) throw notificationsNotSupported();
  if (!session.subscriber.isOpen) throw serverError('connection closed');
  return session;
}

/** A WebSocket connection owns the filters it installs: they go when it closes. */
export const ownerOf = (ctx: CallContext): object | undefined => (ctx.transport === 'ws' ? sessionOf(ctx).subscriber : undefined);
