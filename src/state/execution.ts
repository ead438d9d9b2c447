import { createBlock, type Block } from '@ethereumjs/block';
import { createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx';
import { createZeroAddress, createAddressFromString, type Address, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { runTx, type VM, type RunTxResult } from '@ethereumjs/vm';
import type { TransactionCall } from '../../generated/types.js';
import type { Chain } from '../chain/chain.js';
import { createChainVM } from './vm.js';

/** EIP-7825 (Osaka) caps a transaction's gas at 2^24. */
const TX_GAS_CAP = 1n << 24n;

export interface CallOutcome {
  result?: RunTxResult;
  /** set when the transaction could not even start (intrinsic gas, funds…) */
  invalid?: string;
}

/** Why a call did not succeed: it could not start, it reverted (with data), or the EVM stopped it. */
export type CallFault = { kind: 'invalid'; message: string } | { kind: 'revert'; data: Uint8Array } | { kind: 'halt'; message: string };

export class CallFailure extends Error {
  constructor(readonly fault: CallFault) {
    super(fault.kind === 'revert' ? 'execution reverted' : fault.message);
  }
}

export function faultOf(outcome: CallOutcome): CallFault | undefined {
  if (outcome.invalid !== undefined) return { kind: 'invalid', message: outcome.invalid };
  const error = outcome.result?.execResult.exceptionError;
  if (error === undefined) return undefined;
  if (error.error === 'revert') return { kind: 'revert', data: outcome.result!.execResult.returnValue };
  return { kind: 'halt', message: error.error };
}

const big = (hex: string | undefined) => (hex === undefined ? undefined : BigInt(hex));

/**
 * Runs call objects (eth_call, eth_estimateGas) against a block's state in a throwaway VM: nothing
 * they do reaches the chain.
 */
export class Executor {
  constructor(private readonly chain: Chain) {}

  /** Most gas a call may use at `block`: the block's gas limit, and the fork's per-transaction cap. */
  gasCap(block: Block): bigint {
    const common = this.chain.commons.at(block.header);
    const limit = block.header.gasLimit;
    return common.isActivatedEIP(7825) && limit > TX_GAS_CAP ? TX_GAS_CAP : limit;
  }

  /** Runs a call; throws CallFailure unless it succeeds. */
  async call(request: TransactionCall, block: Block): Promise<Uint8Array> {
    const outcome = await (await this.prepare(request, block))();
    const fault = faultOf(outcome);
    if (fault !== undefined) throw new CallFailure(fault);
    return outcome.result!.execResult.returnValue;
  }

  /**
   * The least gas with which the call succeeds, found as geth does: check it succeeds with all the
   * gas it may have, then binary-search. Throws CallFailure when it fails even with all of it.
   */
  async estimateGas(request: TransactionCall, block: Block): Promise<bigint> {
    const run = await this.prepare(request, block);
    let hi = request.gas !== undefined ? BigInt(request.gas) : this.gasCap(block);
    const first = await run(hi);
    const fault = faultOf(first);
    if (fault !== undefined) throw new CallFailure(fault);
    const succeeds = async (gas: bigint) => faultOf(await run(gas)) === undefined;
    const used = first.result!.totalGasSpent;
    let lo = used - 1n;
    // Most calls need only what they used plus what EIP-150 holds back from subcalls; try that first.
    const optimistic = ((used + 2300n) * 64n) / 63n;
    if (optimistic < hi && (await succeeds(optimistic))) hi = optimistic;
    while (lo + 1n < hi) {
      const mid = (lo + hi) / 2n;
      if (await succeeds(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  /** Prepares a VM on `block`'s state; `run` executes the call with a given gas limit, each run from the same state. */
  async prepare(request: TransactionCall, block: Block): Promise<(gas?: bigint) => Promise<CallOutcome>> {
    const common = this.chain.commons.at(block.header);
    const state = await this.chain.state.scratch(block.header.stateRoot);
    const vm = await createChainVM(this.chain, common, state);
    const priced = request.gasPrice !== undefined || request.maxFeePerGas !== undefined;
    // As geth does, an unpriced call runs with a zero base fee so it needs no funds for gas.
    const context = createBlock(
      { header: { ...block.header.toJSON(), baseFeePerGas: block.header.baseFeePerGas === undefined ? undefined : priced ? block.header.baseFeePerGas : 0n } },
      { common: vm.common, setHardfork: false, skipConsensusFormatValidation: true },
    );
    const from = request.from === undefined ? createZeroAddress() : createAddressFromString(request.from);
    const nonce = (await state.getAccount(from))?.nonce ?? 0n;
    const cap = this.gasCap(block);
    return async (gas) => {
      const tx = this.transaction(request, vm, from, nonce, gas ?? big(request.gas) ?? cap);
      await vm.stateManager.checkpoint();
      try {
        return { result: await runTx(vm, { tx, block: context, skipNonce: true, skipBalance: true, skipBlockGasLimitValidation: true, skipHardForkValidation: true }) };
      } catch (error) {
        return { invalid: (error as Error).message.replace(/ -> .*$/s, '') };
      } finally {
        await vm.stateManager.revert();
      }
    };
  }

  private transaction(request: TransactionCall, vm: VM, from: Address, nonce: bigint, gasLimit: bigint): TypedTransaction {
    const data = (request.input ?? request.data ?? '0x') as PrefixedHexString;
    const common = vm.common;
    const dynamic = request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined;
    const txData: TypedTxData = {
      type: dynamic && common.isActivatedEIP(1559) ? 2 : request.accessList !== undefined && common.isActivatedEIP(2930) ? 1 : 0,
      nonce,
      gasLimit,
      to: request.to === undefined || request.to === null ? undefined : (request.to as PrefixedHexString),
      value: big(request.value) ?? 0n,
      data: hexToBytes(data),
      gasPrice: dynamic ? undefined : (big(request.gasPrice) ?? 0n),
      maxFeePerGas: dynamic ? (big(request.maxFeePerGas) ?? 0n) : undefined,
      maxPriorityFeePerGas: dynamic ? (big(request.maxPriorityFeePerGas) ?? 0n) : undefined,
      accessList: request.accessList?.map((entry) => ({ address: entry.address as PrefixedHexString, storageKeys: entry.storageKeys as PrefixedHexString[] })),
    } as TypedTxData;
    const tx = createTx(txData, { common, freeze: false });
    // A call has no signature; the VM asks the transaction for its sender, so tell it.
    tx.getSenderAddress = () => from;
    return tx;
  }
}
