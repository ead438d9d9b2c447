import type { RpcMethods } from '../../../generated/methods.js';
import { serverError } from '../../rpc/errors.js';

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

const notYet = (method: string) => async () => {
  throw serverError(`${method} is not yet supported`);
};

/** Filters and logs arrive with issue #4; until then they say so rather than answer falsely. */
export function filterMethods(): Pick<RpcMethods, FilterMethod> {
  return {
    eth_newFilter: notYet('eth_newFilter'),
    eth_newBlockFilter: notYet('eth_newBlockFilter'),
    eth_newPendingTransactionFilter: notYet('eth_newPendingTransactionFilter'),
    eth_getFilterChanges: notYet('eth_getFilterChanges'),
    eth_getFilterLogs: notYet('eth_getFilterLogs'),
    eth_uninstallFilter: notYet('eth_uninstallFilter'),
    eth_getLogs: notYet('eth_getLogs'),
    eth_subscribe: notYet('eth_subscribe'),
    eth_unsubscribe: notYet('eth_unsubscribe'),
  };
}
