// A transaction request (eth_sendTransaction, eth_sendUnsignedTransaction, eth_signTransaction) made
// into a transaction: priced, its gas estimated and checked as geth checks it before signing, then
// signed with a node account's key or given an impersonated sender's placeholder signature.
import type { Common } from '@ethereumjs/common';
import { createTx, type TypedTxData } from '@ethereumjs/tx';
import { createAddressFromString, hexToBytes, type Address, type PrefixedHexString } from '@ethereumjs/util';
import type { TransactionRequest } from '../../generated/types.js';
import { SUGGESTED_TIP } from '../fees/fees.js';
import { toQuantity } from '../format/quantity.js';
import type { MadeTransaction } from '../producer/submission.js';
import { serverError } from '../rpc/errors.js';
import { PoolErrors } from '../txpool/errors.js';
import { impersonationSignature } from '../txpool/impersonation.js';
import { checkCallObject } from './call-object.js';
import type { Services } from './services.js';

const big = (hex: string | undefined) => (hex === undefined ? undefined : BigInt(hex));
const MAX_NONCE = 2n ** 64n - 1n;
const MAX_UINT256 = 2n ** 256n - 1n;

/** How a request is priced: the request's fee fields, with the node's defaults for the rest. */
type Pricing = { legacy: true; gasPrice: bigint } | { legacy: false; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** Who signs a transaction: a node account with its key, or nobody (an impersonated sender's placeholder signature). */
export type Signer = { key: Uint8Array } | { impersonated: true };

/** A request with everything filled in but its nonce, which is picked under the nonce lock unless the request names one. */
export interface Draft {
  from: Address;
  nonce?: bigint;
  /** the transaction with `nonce`, signed by `signer` */
  make(nonce: bigint, signer: Signer): MadeTransaction;
}

/** The request priced, its gas estimated and checked as geth checks it before signing. */
export async function draftOf(
  { chain, pool, executor, nextBlock }: Pick<Services, 'chain' | 'pool' | 'executor' | 'nextBlock'>,
  request: TransactionRequest,
): Promise<Draft> {
  checkCallObject(request, chain.commons.base.chainId());
  const head = chain.head();
  const common = chain.nextCommon();
  const pricing = pricingOf(request, common, nextBlock.baseFeeOn(head.header, common), pool.minGasPrice);
  // A tip near 2^256 takes the default fee cap (the tip plus twice the base fee) past what a transaction holds.
  if ((pricing.legacy ? pricing.gasPrice : pricing.maxFeePerGas) > MAX_UINT256) throw serverError('max fee per gas higher than 2^256-1');
  if (!pricing.legacy && pricing.maxFeePerGas < pricing.maxPriorityFeePerGas) {
    throw serverError(`maxFeePerGas (${pricing.maxFeePerGas}) < maxPriorityFeePerGas (${pricing.maxPriorityFeePerGas})`);
  }
  // As geth: the gas is estimated with the fees the transaction will carry.
  const gas = big(request.gas) ?? (await executor.estimateGas(withFees(request, pricing), head));
  const nonce = big(request.nonce);
  const from = createAddressFromString(request.from);
  const balance = (await (await chain.state.at(chain.headStateRoot())).getAccount(from))?.balance ?? 0n;
  checkSignable(request, pricing, gas, nonce, { common, blockGasLimit: nextBlock.gasLimitOn(head.header), balance });
  return {
    from,
    nonce,
    make: (n, signer) => {
      const fields = transactionData(request, { nonce: n, gas, common, pricing });
      if ('key' in signer) return { raw: createTx(fields, { common }).sign(signer.key).serialize(), impersonated: false };
      const raw = createTx({ ...fields, ...impersonationSignature(from, Number(fields.type ?? 0), common) }, { common }).serialize();
      return { raw, impersonated: true };
    },
  };
}

/** The fees of `request`, those it leaves out filled in: a legacy price at least the pool's floor (`minGasPrice`). */
function pricingOf(request: TransactionRequest, common: Common, baseFee: bigint, minGasPrice: bigint): Pricing {
  // An authorization list makes it a set-code (EIP-7702) transaction, which prices as EIP-1559 does.
  const setCode = (request.authorizationList?.length ?? 0) > 0 && common.isActivatedEIP(7702);
  if (!setCode && (request.gasPrice !== undefined || !common.isActivatedEIP(1559))) {
    const suggested = baseFee + SUGGESTED_TIP;
    return { legacy: true, gasPrice: big(request.gasPrice) ?? (suggested > minGasPrice ? suggested : minGasPrice) };
  }
  const tip = big(request.maxPriorityFeePerGas) ?? SUGGESTED_TIP;
  // Room for the base fee to double before the transaction can no longer pay it.
  return { legacy: false, maxPriorityFeePerGas: tip, maxFeePerGas: big(request.maxFeePerGas) ?? 2n * baseFee + tip };
}

function withFees(request: TransactionRequest, pricing: Pricing): TransactionRequest {
  if (pricing.legacy) return { ...request, gasPrice: toQuantity(pricing.gasPrice) };
  return { ...request, maxFeePerGas: toQuantity(pricing.maxFeePerGas), maxPriorityFeePerGas: toQuantity(pricing.maxPriorityFeePerGas) };
}

/**
 * What geth refuses, in its words, before the transaction is signed: the library would refuse to
 * build some of these (a gas limit over the fork's cap, gas × fee over 256 bits) with messages of its own.
 */
function checkSignable(
  request: TransactionRequest,
  pricing: Pricing,
  gas: bigint,
  nonce: bigint | undefined,
  { common, blockGasLimit, balance }: { common: Common; blockGasLimit: bigint; balance: bigint },
): void {
  if (nonce !== undefined && nonce >= MAX_NONCE) throw serverError('nonce has max value');
  const txGasCap = common.isActivatedEIP(7825) ? common.param('maxTransactionGasLimit') : undefined;
  if (txGasCap !== undefined && gas > txGasCap) throw PoolErrors.gasLimitTooHigh(txGasCap, gas);
  if (gas > blockGasLimit) throw PoolErrors.blockGasLimit();
  const cost = gas * (pricing.legacy ? pricing.gasPrice : pricing.maxFeePerGas) + (big(request.value) ?? 0n);
  if (cost > balance) throw PoolErrors.insufficientFunds(balance, cost);
}

/** The transaction a request makes: the request's fields, priced by `pricing`. */
function transactionData(
  request: TransactionRequest,
  { nonce, gas, common, pricing }: { nonce: bigint; gas: bigint; common: Common; pricing: Pricing },
): TypedTxData {
  const setCode = (request.authorizationList?.length ?? 0) > 0 && common.isActivatedEIP(7702);
  return {
    type: pricing.legacy ? (request.accessList !== undefined ? 1 : 0) : setCode ? 4 : 2,
    nonce,
    gasLimit: gas,
    to: (request.to ?? undefined) as PrefixedHexString | undefined,
    value: big(request.value) ?? 0n,
    data: hexToBytes((request.input ?? request.data ?? '0x') as PrefixedHexString),
    gasPrice: pricing.legacy ? pricing.gasPrice : undefined,
    maxPriorityFeePerGas: pricing.legacy ? undefined : pricing.maxPriorityFeePerGas,
    maxFeePerGas: pricing.legacy ? undefined : pricing.maxFeePerGas,
    accessList: request.accessList?.map((e) => ({ address: e.address as PrefixedHexString, storageKeys: e.storageKeys as PrefixedHexString[] })),
    authorizationList: setCode ? request.authorizationList : undefined,
    chainId: common.chainId(),
  } as TypedTxData;
}
