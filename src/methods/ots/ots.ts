import { createAddressFromString } from '@ethereumjs/util';
import { requireBlock, type BlockRef } from '../../chain/block-tags.js';
import { Explorer } from '../../ots/explorer.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'tracing'>;

/** Otterscan's API, level 8 (src/ots/explorer.ts answers it). */
export const OTS_API_LEVEL = 8;

export function otsMethods({ chain, tracing }: Deps): Pick<
  Handlers,
  | 'ots_getApiLevel'
  | 'ots_getBlockDetails'
  | 'ots_getBlockTransactions'
  | 'ots_searchTransactionsBefore'
  | 'ots_searchTransactionsAfter'
  | 'ots_getInternalOperations'
  | 'ots_traceTransaction'
  | 'ots_getTransactionError'
  | 'ots_hasCode'
  | 'ots_getContractCreator'
  | 'ots_getTransactionBySenderAndNonce'
> {
  const explorer = new Explorer(chain, tracing);
  return {
    ots_getApiLevel: async () => OTS_API_LEVEL,
    ots_getBlockDetails: ([number]) => explorer.blockDetails(BigInt(number)),
    ots_getBlockTransactions: ([number, page, size]) => explorer.blockTransactions(BigInt(number), page, size),
    ots_searchTransactionsBefore: ([address, number, size]) => explorer.search(address, BigInt(number), size, 'before'),
    ots_searchTransactionsAfter: ([address, number, size]) => explorer.search(address, BigInt(number), size, 'after'),
    ots_getInternalOperations: ([hash]) => explorer.internalOperations(hash),
    ots_traceTransaction: ([hash]) => explorer.traceEntries(hash),
    ots_getTransactionError: ([hash]) => explorer.transactionError(hash),
    ots_hasCode: async ([address, ref]) => {
      const block = await requireBlock(chain, ref as BlockRef);
      const state = await chain.state.at(chain.stateRootOf(block));
      return (await state.getCode(createAddressFromString(address))).length > 0;
    },
    ots_getContractCreator: ([address]) => explorer.contractCreator(address),
    ots_getTransactionBySenderAndNonce: ([sender, nonce]) => explorer.transactionBySenderAndNonce(sender, BigInt(nonce)),
  };
}
