import { createTx, type TypedTxData } from '@ethereumjs/tx';
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { RpcMethods } from '../../../generated/methods.js';
import type { TransactionRequest } from '../../../generated/types.js';
import type { Common } from '@ethereumjs/common';
import { RpcError, serverError } from '../../rpc/errors.js';
import { PoolError } from '../../txpool/errors.js';
import { Mutex } from '../../txpool/mutex.js';
import { nextBaseFee, SUGGESTED_TIP } from './fees.js';
import { checkCallObject, withCallErrors } from './execution.js';
import type { Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'pool' | 'mining' | 'accounts' | 'executor'>;

const big = (hex: string | undefined) => (hex === undefined ? undefined : BigInt(hex));

export function submissionMethods({ chain, pool, mining, accounts, executor }: Deps): Pick<
  RpcMethods,
  'eth_sendRawTransaction' | 'eth_sendTransaction'
> {
  const admit = async (raw: Uint8Array) => {
    try {
      return await pool.add(raw);
    } catch (error) {
      if (error instanceof PoolError) throw new RpcError(error.code, error.message);
      throw error;
    }
  };
  const mined = async (hashHex: string): Promise<string> => {
    await mining.submitted(hashHex);
    // Always keccak of the submitted bytes: ethers refuses a node whose hash differs from its own.
    return hashHex;
  };
  // Picking a nonce and admitting the transaction signed with it must not interleave between
  // two eth_sendTransaction calls, or both pick the same nonce (geth holds a nonce lock too).
  const nonceLock = new Mutex();

  return {
    eth_sendRawTransaction: async ([data]) => mined((await admit(hexToBytes(data as PrefixedHexString))).hashHex),
    eth_sendTransaction: async ([request]) => {
      const from = request.from.toLowerCase();
      const account = accounts.find((a) => a.address === from);
      if (account === undefined) throw serverError(`unknown account ${request.from}`);
      checkCallObject(request, chain.commons.base.chainId());
      const head = chain.head();
      const common = chain.commons.at({ number: head.header.number + 1n, timestamp: head.header.timestamp + 1n });
      const gas = big(request.gas) ?? (await withCallErrors(() => executor.estimateGas(request, head)));
      const sign = (nonce: bigint) =>
        createTx(transactionData(request, { nonce, gas, common, baseFee: nextBaseFee(chain) }), { common }).sign(account.privateKey).serialize();
      const explicitNonce = big(request.nonce);
      const pooled = await nonceLock.run(async () => admit(sign(explicitNonce ?? (await pool.pendingNonce(from)))));
      return mined(pooled.hashHex);
    },
  };
}

/** The transaction eth_sendTransaction signs: the request's fields, with the node's defaults for the rest. */
function transactionData(
  request: TransactionRequest,
  { nonce, gas, common, baseFee }: { nonce: bigint; gas: bigint; common: Common; baseFee: bigint },
): TypedTxData {
  // An authorization list makes it a set-code (EIP-7702) transaction, which prices as EIP-1559 does.
  const setCode = (request.authorizationList?.length ?? 0) > 0 && common.isActivatedEIP(7702);
  const legacy = !setCode && (request.gasPrice !== undefined || !common.isActivatedEIP(1559));
  const tip = big(request.maxPriorityFeePerGas) ?? SUGGESTED_TIP;
  return {
    type: legacy ? (request.accessList !== undefined ? 1 : 0) : setCode ? 4 : 2,
    nonce,
    gasLimit: gas,
    to: (request.to ?? undefined) as PrefixedHexString | undefined,
    value: big(request.value) ?? 0n,
    data: hexToBytes((request.input ?? request.data ?? '0x') as PrefixedHexString),
    gasPrice: legacy ? (big(request.gasPrice) ?? baseFee + SUGGESTED_TIP) : undefined,
    maxPriorityFeePerGas: legacy ? undefined : tip,
    // Room for the base fee to double before the transaction can no longer pay it.
    maxFeePerGas: legacy ? undefined : (big(request.maxFeePerGas) ?? 2n * baseFee + tip),
    accessList: request.accessList?.map((e) => ({ address: e.address as PrefixedHexString, storageKeys: e.storageKeys as PrefixedHexString[] })),
    authorizationList: setCode ? request.authorizationList : undefined,
    chainId: common.chainId(),
  } as TypedTxData;
}
