import type { FilterChanges } from '../../../generated/types.js';
import type { SubscriberSession } from '../../filters/subscriptions.js';
import type { CallContext } from '../../rpc/dispatch.js';
import { notificationsNotSupported, serverError } from '../../rpc/errors.js';
import type { Handlers, Services } from '../services.js';

type FilterMethod =
  | 'eth_newFilter'
  | 'eth_newBlockFilter'
  | 'eth_newPendingTransactionFilter'
  | 'eth_getFilterChanges'
  | 'eth_getFilterLogs'
  | 'eth_uninstallFilter'
  | 'eth_getLogs'
  | 'eth_subscribe'
  | 'eth_unsubscribe';

/**
 * The WebSocket session of the call, or -32601 as geth answers subscriptions over HTTP. A
 * connection that ended while the call ran gets nothing registered for it (nor any reply).
 */
function sessionOf(ctx: CallContext): SubscriberSession {
  const session = ctx.connection as SubscriberSession | undefined;
  if (ctx.transport !== 'ws' || session === undefined) throw notificationsNotSupported();
  if (!session.subscriber.isOpen) throw serverError('connection closed');
  return session;
}

/** A WebSocket connection owns the filters it installs: they go when it closes. */
const ownerOf = (ctx: CallContext): object | undefined => (ctx.transport === 'ws' ? sessionOf(ctx).subscriber : undefined);

/** Polled filters, log queries and WebSocket subscriptions; each delegates to src/filters. */
export function filterMethods({ filters, logQuery, subscriptions }: Pick<Services, 'filters' | 'logQuery' | 'subscriptions'>): Pick<Handlers, FilterMethod> {
  return {
    eth_newFilter: async ([options], ctx) => filters.newLogFilter(options, ownerOf(ctx)),
    eth_newBlockFilter: async (_params, ctx) => filters.newBlockFilter(ownerOf(ctx)),
    eth_newPendingTransactionFilter: async (_params, ctx) => filters.newPendingTransactionFilter(ownerOf(ctx)),
    eth_getFilterChanges: async ([id]) => (await filters.changes(id)) as FilterChanges,
    eth_getFilterLogs: async ([id]) => filters.logs(id),
    eth_uninstallFilter: async ([id]) => filters.uninstall(id),
    eth_getLogs: async ([options]) => logQuery.getLogs(options),
    eth_subscribe: async ([kind, options], ctx) => subscriptions.subscribe(sessionOf(ctx), kind, options),
    eth_unsubscribe: async ([id], ctx) => subscriptions.unsubscribe(sessionOf(ctx).subscriber, id),
  };
}
