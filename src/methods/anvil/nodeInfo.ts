import { bytesToHex } from '@ethereumjs/util';
import { SUGGESTED_TIP } from '../../fees/fees.js';
import type { ForkInfo } from '../../fork/chain-fork.js';
import { toQuantity } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

/** anvil's fork configuration, with the fork block's hash and the remote chain's id besides (all null on a chain that forks nothing). */
function forkConfig(fork: ForkInfo | undefined, retryBackoffMs: number, proofs: boolean) {
  if (fork === undefined) return { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null, forkBlockHash: null, forkChainId: null, offline: false, stateRoots: null };
  return {
    forkUrl: fork.url ?? null,
    forkBlockNumber: Number(fork.number),
    forkRetryBackoff: retryBackoffMs,
    forkBlockHash: bytesToHex(fork.hash),
    forkChainId: Number(fork.remoteChainId),
    offline: fork.offline,
    stateRoots: proofs ? ('real' as const) : ('local' as const),
  };
}

export function anvil_nodeInfo({ chain, nextBlock, node }: Pick<MethodServices, 'chain' | 'nextBlock' | 'node'>): Handlers['anvil_nodeInfo'] {
  return async () => {
    const head = chain.head();
    const common = chain.nextCommon();
    const baseFee = nextBlock.baseFeeOn(head.header, common);
    return {
      currentBlockNumber: toQuantity(head.header.number),
      currentBlockTimestamp: Number(head.header.timestamp),
      currentBlockHash: bytesToHex(head.hash()),
      hardFork: common.hardfork(),
      transactionOrder: 'fees',
      environment: {
        baseFee: toQuantity(baseFee),
        chainId: Number(common.chainId()),
        gasLimit: toQuantity(nextBlock.gasLimitOn(head.header)),
        gasPrice: toQuantity(baseFee + SUGGESTED_TIP),
      },
      forkConfig: forkConfig(chain.fork?.info, node.forkRetryBackoffMs, chain.fork?.forkState.values === undefined),
    };
  };
}
