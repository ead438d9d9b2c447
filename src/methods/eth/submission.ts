import { createTx, type TypedTxData } from '@ethereumjs/tx';
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { RpcMethods } from '../../../generated/methods.js';
import { RpcError, serverError } from '../../rpc/errors.js';
import { PoolError } from '../../txpool/errors.js';
import { nextBaseFee, SUGGESTED_TIP } from './fees.js';
import { withCallErrors } from './execution.js';
import type { Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'pool' | 'mining' | 'accounts' | 'executor'>;

const big = (hex: string | undefined) => (hex === undefined ? undefined : BigInt(hex));

export function submissionMethods({ chain, pool, mining, accounts, executor }: Deps): Pick<
  RpcMethods,
  'eth_sendRawTransaction' | 'eth_sendTransaction'
> {
  const submit = async (raw: Uint8Array): Promise<string> => {
    let pooled;
    try {
      pooled = await pool.add(raw);
    } catch (error) {
      if (error instanceof PoolError) throw new RpcError(error.code, error.message);
      throw error;
    }
    await mining.submitted(pooled.hashHex);
    // Always keccak of the submitted bytes: ethers refuses a node whose hash differs from its own.
    return pooled.hashHex;
  };

  return {
    eth_sendRawTransaction: async ([data]) => submit(hexToBytes(data as PrefixedHexString)),
    eth_sendTransaction: async ([request]) => {
      const from = request.from.toLowerCase();
      const account = accounts.find((a) => a.address === from);
      if (account === undefined) throw serverError(`unknown account ${request.from}`);
      const head = chain.head();
      const common = chain.commons.at({ number: head.header.number + 1n, timestamp: head.header.timestamp + 1n });
      const legacy = request.gasPrice !== undefined || !common.isActivatedEIP(1559);
      const tip = big(request.maxPriorityFeePerGas) ?? SUGGESTED_TIP;
      const gas = big(request.gas) ?? (await withCallErrors(() => executor.estimateGas(request, head)));
      const txData: TypedTxData = {
        type: legacy ? (request.accessList !== undefined ? 1 : 0) : 2,
        nonce: big(request.nonce) ?? (await pool.pendingNonce(from)),
        gasLimit: gas,
        to: (request.to ?? undefined) as PrefixedHexString | undefined,
        value: big(request.value) ?? 0n,
        data: hexToBytes((request.input ?? request.data ?? '0x') as PrefixedHexString),
        gasPrice: legacy ? (big(request.gasPrice) ?? nextBaseFee(chain) + SUGGESTED_TIP) : undefined,
        maxPriorityFeePerGas: legacy ? undefined : tip,
        maxFeePerGas: legacy ? undefined : (big(request.maxFeePerGas) ?? 2n * nextBaseFee(chain) + tip),
        accessList: request.accessList?.map((e) => ({ address: e.address as PrefixedHexString, storageKeys: e.storageKeys as PrefixedHexString[] })),
        chainId: common.chainId(),
      } as TypedTxData;
      const signed = createTx(txData, { common }).sign(account.privateKey);
      return submit(signed.serialize());
    },
  };
}
