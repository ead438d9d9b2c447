import { createTx, type TypedTxData } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromString, hexToBytes, type Address, type PrefixedHexString } from '@ethereumjs/util';
import type { TransactionRequest } from '../../../generated/types.js';
import type { Common } from '@ethereumjs/common';
import type { DevAccount } from '../../chain/dev-accounts.js';
import { fromData, toQuantity } from '../../format/quantity.js';
import { serverError } from '../../rpc/errors.js';
import { PoolErrors } from '../../txpool/errors.js';
import { impersonationSignature } from '../../txpool/impersonation.js';
import { Mutex } from '../../txpool/mutex.js';
import type { PooledTx } from '../../txpool/types.js';
import { SUGGESTED_TIP } from '../../fees/fees.js';
import { checkCallObject } from './execution.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'chain' | 'pool' | 'mining' | 'accounts' | 'executor' | 'nextBlock' | 'impersonation'>;

const big = (hex: string | undefined) => (hex === undefined ? undefined : BigInt(hex));
const MAX_NONCE = 2n ** 64n - 1n;
const MAX_UINT256 = 2n ** 256n - 1n;

/** How eth_sendTransaction prices a request: the request's fee fields, with the node's defaults for the rest. */
type Pricing = { legacy: true; gasPrice: bigint } | { legacy: false; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** A request with everything filled in but its nonce, which is picked under the nonce lock. */
interface Draft {
  from: Address;
  nonce?: bigint;
  data: (nonce: bigint) => TypedTxData;
  common: Common;
}

/** Who signs a transaction: a node account with its key, or nobody (an impersonated sender's placeholder signature). */
type Signer = { key: Uint8Array } | { impersonated: true };

export function submissionMethods({ chain, pool, mining, accounts, executor, nextBlock, impersonation }: Deps): Pick<
  Handlers,
  'eth_sendRawTransaction' | 'eth_sendTransaction' | 'eth_sendUnsignedTransaction' | 'eth_signTransaction'
> {
  // Accepted now, journaled only if it is still pooled when it is acknowledged: under automine it
  // is usually mined by then, and a transaction in a landed block needs no journal.
  const admit = (raw: Uint8Array) => pool.accept(raw);
  const mined = async (hashHex: string): Promise<string> => {
    await mining.submitted(hashHex);
    await pool.persist(hashHex);
    // Always keccak of the submitted bytes: ethers refuses a node whose hash differs from its own.
    return hashHex;
  };
  // Picking a nonce and admitting the transaction signed with it must not interleave between
  // two eth_sendTransaction calls, or both pick the same nonce (geth holds a nonce lock too).
  const nonceLock = new Mutex();

  /** The request priced, its gas estimated and checked as geth checks it before signing. */
  const draft = async (request: TransactionRequest): Promise<Draft> => {
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
    return { from, nonce, common, data: (n) => transactionData(request, { nonce: n, gas, common, pricing }) };
  };

  /** The encoded transaction of `draft` with `nonce`, signed by `signer`. */
  const encode = ({ from, common, data }: Draft, nonce: bigint, signer: Signer): Uint8Array => {
    const fields = data(nonce);
    if ('key' in signer) return createTx(fields, { common }).sign(signer.key).serialize();
    return createTx({ ...fields, ...impersonationSignature(from, Number(fields.type ?? 0), common) }, { common }).serialize();
  };

  /** Signs (or marks as impersonated) and admits, the nonce picked from the pool when the request names none. */
  const send = async (request: TransactionRequest, signer: Signer): Promise<string> => {
    const prepared = await draft(request);
    const pooled = await nonceLock.run(async (): Promise<PooledTx> => {
      const raw = encode(prepared, prepared.nonce ?? (await pool.pendingNonce(request.from.toLowerCase())), signer);
      return 'key' in signer ? admit(raw) : pool.addImpersonated(raw, prepared.from);
    });
    return mined(pooled.hashHex);
  };

  const accountOf = (address: string): DevAccount | undefined => accounts.find((a) => a.address === address.toLowerCase());

  return {
    eth_sendRawTransaction: async ([data]) => mined((await admit(fromData(data))).hashHex),
    eth_sendTransaction: async ([request]) => {
      // A node account signs with its key, impersonated or not, so its transactions stay verifiable.
      const account = accountOf(request.from);
      if (account !== undefined) return send(request, { key: account.privateKey });
      if (impersonation.covers(createAddressFromString(request.from))) return send(request, { impersonated: true });
      throw serverError(`unknown account ${request.from}`);
    },
    eth_sendUnsignedTransaction: async ([request]) => send(request, { impersonated: true }),
    eth_signTransaction: async ([request]) => {
      const account = accountOf(request.from);
      if (account === undefined) throw serverError(`unknown account ${request.from}`);
      const prepared = await draft(request);
      const nonce = prepared.nonce ?? (await pool.pendingNonce(request.from.toLowerCase()));
      return bytesToHex(encode(prepared, nonce, { key: account.privateKey }));
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

/** The transaction eth_sendTransaction signs: the request's fields, priced by `pricing`. */
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
