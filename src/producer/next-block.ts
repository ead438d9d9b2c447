import type { BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { Address } from '@ethereumjs/util';
import { baseFeeAfter } from '../fees/fees.js';

/** The protocol's least block gas limit, on every fork. */
export const MIN_GAS_LIMIT = 5_000n;
/** geth's MaxGasLimit: the largest gas limit a header may carry. */
export const MAX_GAS_LIMIT = 2n ** 63n - 1n;

/** The settings, as evm_snapshot keeps them. */
export interface NextBlockState {
  coinbase: Address;
  gasLimit?: bigint;
  baseFee?: bigint;
}

/**
 * What the node's next blocks carry beyond their transactions: the coinbase (anvil_setCoinbase),
 * the gas limit (evm_setBlockGasLimit, for every block from now on) and the base fee
 * (anvil_setNextBlockBaseFeePerGas, for the next block only). Unset, they follow the parent.
 */
export class NextBlock {
  private gasLimit?: bigint;
  private baseFee?: bigint;

  constructor(private coinbaseAddress: Address) {}

  get coinbase(): Address {
    return this.coinbaseAddress;
  }

  setCoinbase(address: Address): void {
    this.coinbaseAddress = address;
  }

  setGasLimit(gasLimit: bigint): void {
    this.gasLimit = gasLimit;
  }

  setBaseFee(baseFee: bigint): void {
    this.baseFee = baseFee;
  }

  /** The gas limit of a block on `parent`. */
  gasLimitOn(parent: BlockHeader): bigint {
    return this.gasLimit ?? parent.gasLimit;
  }

  /** The base fee of a block on `parent`, whose fork `common` is (zero before London). */
  baseFeeOn(parent: BlockHeader, common: Common): bigint {
    return this.baseFee !== undefined && common.isActivatedEIP(1559) ? this.baseFee : baseFeeAfter(parent, common);
  }

  /** A block landed: the one-block base fee is spent. */
  landed(): void {
    this.baseFee = undefined;
  }

  save(): NextBlockState {
    return { coinbase: this.coinbaseAddress, gasLimit: this.gasLimit, baseFee: this.baseFee };
  }

  restore(saved: NextBlockState): void {
    this.coinbaseAddress = saved.coinbase;
    this.gasLimit = saved.gasLimit;
    this.baseFee = saved.baseFee;
  }
}
