import type { Block } from '@ethereumjs/block';
import type { VM, RunTxResult } from '@ethereumjs/vm';
import { bytesToHex, equalsBytes, type Address } from '@ethereumjs/util';
import type { Chain } from '../chain/chain.js';
import { baseFeeAfter } from '../fees/fees.js';
import type { Logger } from '../log.js';
import { assembleBlock } from './block-assembly.js';
import type { BatchOp } from '../storage/database.js';
import { createChainVM } from '../state/vm.js';
import type { StoredReceipt } from '../chain/receipts.js';
import type { TxPool } from '../txpool/pool.js';
import type { PooledTx } from '../txpool/types.js';

export interface MinerOptions {
  coinbase: Address;
  /** unix seconds; lets callers (evm_mine) pick a block's timestamp */
  now?: () => bigint;
  /** debug: when a block starts being built and when it has landed (the kill -9 tests read it); error: faults */
  log: Pick<Logger, 'debug' | 'error'>;
}

export interface MinedBlock {
  block: Block;
  included: PooledTx[];
}

/**
 * Builds blocks from the pool's executable transactions on the chain's writer state and appends
 * them. One block at a time: callers queue behind the block being built.
 */
export class Miner {
  private queue: Promise<unknown> = Promise.resolve();
  private nextTimestamp?: bigint;
  /** Bumped on every pool change, so a preview is rebuilt only when its inputs changed. */
  private poolVersion = 0;
  private lastPreview?: { key: string; block: Promise<Block> };
  private vm?: Promise<VM>;

  /** `createVm` makes the VM over the chain's writer state, on the first block built (it loads the VM library). */
  constructor(
    private readonly chain: Chain,
    private readonly pool: TxPool,
    private readonly createVm: () => Promise<VM>,
    private readonly opts: MinerOptions,
  ) {
    pool.on('added', () => this.poolVersion++);
    pool.on('removed', () => this.poolVersion++);
  }

  /** Mines one block (possibly empty) and answers it once it is the head. */
  mine(timestamp?: bigint): Promise<MinedBlock> {
    return this.exclusive(() => this.build(timestamp));
  }

  /**
   * Runs `task` in the miner's turn: no block is built while it runs. For work that advances the
   * chain's writer state itself, as a chain import does.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once the block being built, if any, has landed. */
  async idle(): Promise<void> {
    await this.queue;
  }

  /** Uses `timestamp` for the next block, as evm_setNextBlockTimestamp does. */
  setNextTimestamp(timestamp: bigint): void {
    this.nextTimestamp = timestamp;
  }

  private timestampFor(parent: Block, requested: bigint | undefined, consume: boolean): bigint {
    const now = this.opts.now?.() ?? BigInt(Math.floor(Date.now() / 1000));
    const wanted = requested ?? this.nextTimestamp ?? now;
    if (consume) this.nextTimestamp = undefined;
    // Timestamps strictly increase, even when several blocks are mined within one second.
    return wanted > parent.header.timestamp ? wanted : parent.header.timestamp + 1n;
  }

  /**
   * The block the node would mine next, built on a throwaway copy of the state: what the
   * `pending` tag reads. Nothing it does reaches the chain.
   */
  preview(): Promise<Block> {
    const key = `${bytesToHex(this.chain.head().hash())}:${this.poolVersion}`;
    if (this.lastPreview?.key !== key) {
      const block = this.buildPreview();
      block.catch(() => {
        if (this.lastPreview?.block === block) this.lastPreview = undefined;
      });
      this.lastPreview = { key, block };
    }
    return this.lastPreview.block;
  }

  private async buildPreview(): Promise<Block> {
    const parent = this.chain.head();
    // Its state lives in memory only, pinned so that state reads at `pending` (balances, calls) find it.
    const state = await this.chain.state.ephemeral(parent.header.stateRoot);
    const vm = await createChainVM(this.chain, this.chain.nextCommon(), state);
    const { block } = await this.assemble(vm, parent, this.timestampFor(parent, undefined, false));
    this.chain.state.pin(block.header.stateRoot, state);
    return block;
  }

  private async build(requestedTimestamp?: bigint): Promise<MinedBlock> {
    const parent = this.chain.head();
    this.opts.log.debug(`building block ${parent.header.number + 1n}`);
    const vm = await (this.vm ??= this.createVm());
    const state = vm.stateManager;
    if (!equalsBytes(await state.getStateRoot(), parent.header.stateRoot)) await state.setStateRoot(parent.header.stateRoot);
    const { block, included, results } = await this.assemble(vm, parent, this.timestampFor(parent, requestedTimestamp, true));
    const receipts = results.map((result, i): StoredReceipt => toStoredReceipt(result, included[i]));
    const minedHashes = included.map((p) => p.hashHex);
    let poolSettled: Promise<unknown> = Promise.resolve();
    try {
      await this.chain.append(block, receipts, {
        ops: this.pool.removalOps(minedHashes) as unknown as BatchOp[],
        landed: () => {
          poolSettled = this.pool.afterBlock(minedHashes);
        },
      });
    } catch (error) {
      this.chain.state.discard();
      await state.setStateRoot(parent.header.stateRoot);
      throw error;
    }
    this.opts.log.debug(`block ${block.header.number} landed with ${included.length} transactions`);
    await poolSettled;
    return { block, included };
  }

  /** Runs the pool's executable transactions on `vm` into a new block on `parent`. */
  private assemble(vm: VM, parent: Block, timestamp: bigint) {
    const candidates = this.pool.executables(baseFeeAfter(parent.header, this.chain.commons.at({ number: parent.header.number + 1n, timestamp })));
    return assembleBlock(vm, parent, timestamp, candidates, this.opts);
  }
}

function toStoredReceipt(result: RunTxResult, pooled: PooledTx): StoredReceipt {
  const receipt = result.receipt as RunTxResult['receipt'] & { status?: 0 | 1; stateRoot?: Uint8Array; blobGasUsed?: bigint };
  return {
    status: receipt.status,
    stateRoot: receipt.stateRoot,
    cumulativeGasUsed: receipt.cumulativeBlockGasUsed,
    gasUsed: result.totalGasSpent,
    logs: receipt.logs,
    sender: pooled.sender.bytes,
    contractAddress: result.createdAddress?.bytes,
    blobGasUsed: receipt.blobGasUsed,
  };
}
