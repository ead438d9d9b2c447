import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVMResult } from '@ethereumjs/evm';
import { Account, bytesToUnprefixedHex, type Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

/**
 * EIPs under which the library's transaction run does more around a call's message than
 * {@link runMessageCall} does: state gas (8037), block access lists (7928), binary trees (7864),
 * recipient gas in the intrinsic cost (2780), other calldata floor tokens (7976, 7981). Calls under
 * any of them run as transactions.
 */
const TRANSACTION_ONLY_EIPS = [2780, 7864, 7928, 7976, 7981, 8037];

/** What an unpriced call to an account runs as: a message from `from`, with `gasLimit` for the whole call. */
export interface MessageCall {
  from: Address;
  to: Address;
  value: bigint;
  data: Uint8Array;
  gasLimit: bigint;
  block: Block;
}

/**
 * Whether calls under `common` may run as bare messages ({@link runMessageCall}): from Berlin on
 * (EIP-2929's warm sets, which it fills as the transaction run does) and under none of
 * {@link TRANSACTION_ONLY_EIPS}.
 */
export function messageCallsServe(common: Common): boolean {
  return common.isActivatedEIP(2929) && !TRANSACTION_ONLY_EIPS.some((eip) => common.isActivatedEIP(eip));
}

/**
 * The gas a call transaction to an account without an access list pays before its message runs
 * (the base cost and its calldata's), and the least gas it must carry: that, or EIP-7623's
 * calldata floor where it is active — what the library's transaction computes, from the same
 * parameters, for the forks {@link messageCallsServe} admits.
 */
export function messageGas(common: Common, data: Uint8Array): { intrinsic: bigint; least: bigint } {
  let zeros = 0n;
  for (const byte of data) if (byte === 0) zeros++;
  const nonZeros = BigInt(data.length) - zeros;
  const base = common.param('txGas');
  const intrinsic = base + zeros * common.param('txDataZeroGas') + nonZeros * common.param('txDataNonZeroGas');
  if (!common.isActivatedEIP(7623)) return { intrinsic, least: intrinsic };
  const floor = base + common.param('totalCostFloorPerToken') * (zeros + nonZeros * 4n);
  return { intrinsic, least: floor > intrinsic ? floor : intrinsic };
}

/**
 * Runs an unpriced call the way the library's runTx runs its transaction up to the message, then
 * the message alone: the same warm addresses (the precompiles, sender, recipient, and the coinbase
 * under EIP-3651), the sender's nonce raised, the gas left after `intrinsic`. What runTx does after
 * the message (refunds, fees, receipt and bloom) changes nothing a call returns, and the caller
 * reverts the state anyway; skipping it and the transaction object saves ~20% of an eth_call's
 * CPU. Only for a sender without code (runTx's EIP-3607 and EIP-7702 paths stay with it).
 */
export async function runMessageCall(vm: VM, call: MessageCall, intrinsic: bigint): Promise<EVMResult> {
  const { evm } = vm;
  const { journal } = evm;
  await journal.cleanup();
  await journal.checkpoint();
  try {
    for (const address of evm.precompiles.keys()) journal.addAlwaysWarmAddress(address);
    journal.addAlwaysWarmAddress(call.from.toString());
    journal.addAlwaysWarmAddress(bytesToUnprefixedHex(call.to.bytes));
    if (vm.common.isActivatedEIP(3651)) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(call.block.header.coinbase.bytes));
    const sender = (await vm.stateManager.getAccount(call.from)) ?? new Account();
    sender.nonce += 1n;
    await journal.putAccount(call.from, sender);
    const result = await evm.runCall({
      block: call.block,
      gasPrice: 0n,
      caller: call.from,
      to: call.to,
      value: call.value,
      data: call.data,
      gasLimit: call.gasLimit - intrinsic,
      skipNonceIncrement: true,
    });
    await journal.commit();
    return result;
  } catch (error) {
    await journal.revert();
    throw error;
  } finally {
    journal.cleanJournal();
    vm.stateManager.originalStorageCache.clear();
  }
}
