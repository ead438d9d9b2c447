import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Block } from '@ethereumjs/block';
import { Hardfork } from '@ethereumjs/common';
import type { VM, RunTxResult } from '@ethereumjs/vm';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { Chain, NewBlock } from '../chain/chain.js';
import type { Logger } from '../log.js';
import { assembleBlock } from './block-assembly.js';
import { EmptyBlockBuilder } from './empty-block.js';
import type { BlockClock } from './block-clock.js';
import type { NextBlock } from './next-block.js';
import { FlatState } from '../state/flat-state.js';
import type { StateSnapshot } from '../state/snapshot.js';
import { createChainVM } from '../state/vm.js';
import type { StoredReceipt } from '../chain/receipts.js';
import type { TxPool } from '../txpool/pool.js';
import type { PooledTx } from '../txpool/types.js';
import { txRequest } from '../state/run-request.js';

export interface MinerOptions {
  /** the next blocks' coinbase, gas limit and base fee */
  next: NextBlock;
  /** where block timestamps come from */
  clock: BlockClock;
  /** debug: when a block starts being built and when it has landed (the kill -9 tests read it); error: faults */
  log: Pick<Logger, 'debug' | 'error'>;
  /** shown each VM blocks are built on (the terminal listens to it for transactions and console.log) */
  watch?: (vm: VM) => void;
}

export interface MinedBlock {
  block: Block;
  included: PooledTx[];
}

/** The block the node would mine next, not mined: its transactions run on a state of its own, with their receipts. */
export interface Preview {
  block: Block;
  receipts: StoredReceipt[];
}

/** A run of blocks stopped before its end (the client went away, or the node is stopping), at a block that landed whole. */
export class MiningStopped extends Error {
  constructor(mined: bigint, count: bigint, head: bigint, reason: unknown) {
    super(`mining stopped after ${mined} of ${count} blocks, at block ${head}: ${String(reason)}`);
    this.name = 'MiningStopped';
  }
}

/** Most empty blocks anvil_mine lands in one LevelDB batch. */
const BLOCKS_PER_BATCH = 256;
/**
 * Empty blocks from which on a run gives the trie node cache more room while it lasts: the system
 * contracts' rings come back to a slot a lap (8,191 blocks) later, which a shorter run never sees.
 */
const LONG_RUN_BLOCKS = 4096;
/** How long a run of empty blocks is built before other requests get their turn, in ms. */
const WORK_BETWEEN_YIELDS_MS = 20;

/**
 * Builds blocks from the pool's executable transactions and appends them. From Byzantium on a
 * block runs on a flat state over its parent's snapshot, whose writes reach the chain's writer
 * (the trie) once, for the state root; before it on the writer itself (each receipt needs the
 * state root after its transaction). One block at a time: callers queue behind the block being built.
 */
export class Miner {
  private queue: Promise<unknown> = Promise.resolve();
  /** Bumped on every pool change, so a preview is rebuilt only when its inputs changed. */
  private poolVersion = 0;
  private lastPreview?: { key: string; preview: Promise<Preview> };
  private vm?: Promise<VM>;
  /** The VM blocks from Byzantium on run on, over a flat state moved to each block's parent. */
  private flat?: { vm: VM; state: FlatState };
  private readonly emptyBlocks: EmptyBlockBuilder;
  /** Aborted when the node stops: runs of blocks end at their next landed batch. */
  private readonly stopping = new AbortController();

  /** `createVm` makes the VM over the chain's writer state, on the first block built (it loads the VM library). */
  constructor(
    private readonly chain: Chain,
    private readonly pool: TxPool,
    private readonly createVm: () => Promise<VM>,
    private readonly opts: MinerOptions,
  ) {
    pool.on('added', () => this.poolVersion++);
    pool.on('removed', () => this.poolVersion++);
    this.emptyBlocks = new EmptyBlockBuilder(chain.state.writer);
  }

  /** Mines one block (possibly empty) and answers it once it is the head. */
  mine(timestamp?: bigint): Promise<MinedBlock> {
    return this.exclusive(() => this.build(timestamp));
  }

  /**
   * Mines `count` blocks (anvil_mine): the first at the clock's time, each later one `interval`
   * seconds after the one before (at least one). The pool's executable transactions go into the
   * first blocks, each landing alone; the empty blocks after them land in batches, so a long run
   * writes a few large batches instead of one per block. Resolves once the last has landed.
   *
   * Once `signal` aborts (the caller went away) or the node stops, the run ends after the block or
   * batch being built has landed, rejecting with MiningStopped: the chain holds every block up to
   * there, whole, and none after.
   */
  mineBlocks(count: bigint, interval: bigint, signal?: AbortSignal): Promise<void> {
    return this.exclusive(async () => {
      let mined = 0n;
      const goOn = () => {
        const stopped = this.stopping.signal.aborted ? this.stopping.signal : signal?.aborted === true ? signal : undefined;
        if (stopped !== undefined) throw new MiningStopped(mined, count, this.chain.head().header.number, stopped.reason);
      };
      let timestamp: bigint | undefined;
      const next = () => (timestamp === undefined ? undefined : timestamp + interval);
      // Blocks with transactions first, until the pool has none left that would run.
      for (let included = 1; mined < count && included > 0 && (mined === 0n || this.pool.executables().length > 0); mined++) {
        goOn();
        const built = await this.build(next());
        timestamp = built.block.header.timestamp;
        included = built.included.length;
      }
      if (mined === count) return;
      const narrow = count - mined >= BigInt(LONG_RUN_BLOCKS) ? this.chain.state.widenNodeCache() : () => {};
      try {
        while (mined < count) {
          goOn();
          const batch = count - mined < BigInt(BLOCKS_PER_BATCH) ? Number(count - mined) : BLOCKS_PER_BATCH;
          timestamp = await this.buildEmptyRun(batch, timestamp! + interval, interval);
          mined += BigInt(batch);
        }
      } finally {
        narrow();
      }
    });
  }

  /**
   * Runs `task` in the miner's turn: no block is built while it runs. For work that advances the
   * chain's writer state itself, as a chain import does.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const fork = this.chain.fork?.forkState;
    const run = this.queue.then(fork === undefined ? task : () => fork.whileWriting(task));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once the block being built, if any, has landed. */
  async idle(): Promise<void> {
    await this.queue;
  }

  /** The node is stopping: runs of blocks, running or queued, end at their next landed block or batch. */
  stop(): void {
    this.stopping.abort('the node is shutting down');
  }

  /**
   * The block the node would mine next, built on a throwaway copy of the state: what the
   * `pending` tag reads. Nothing it does reaches the chain.
   */
  preview(): Promise<Block> {
    return this.previewWithReceipts().then(({ block }) => block);
  }

  /** The pending block with its transactions' receipts (eth_getBlockReceipts of `pending`). */
  previewWithReceipts(): Promise<Preview> {
    const key = `${bytesToHex(this.chain.head().hash())}:${bytesToHex(this.chain.headStateRoot())}:${this.poolVersion}`;
    if (this.lastPreview?.key !== key) {
      const preview = this.buildPreview();
      preview.catch(() => {
        if (this.lastPreview?.preview === preview) this.lastPreview = undefined;
      });
      this.lastPreview = { key, preview };
    }
    return this.lastPreview.preview;
  }

  private async buildPreview(): Promise<Preview> {
    const parent = this.chain.head();
    // Its state lives in memory only, pinned so that state reads at `pending` (balances, calls) find it.
    const state = await this.chain.state.ephemeral(this.chain.stateRootOf(parent));
    const vm = await createChainVM(this.chain, this.chain.nextCommon(), state);
    const { block, included, results } = await this.assemble(vm, parent, this.opts.clock.timestampFor(parent.header));
    this.chain.state.pin(block.header.stateRoot, state);
    return { block, receipts: results.map((result, i) => toStoredReceipt(result, included[i])) };
  }

  private async build(requestedTimestamp?: bigint): Promise<MinedBlock> {
    const parent = this.chain.head();
    this.opts.log.debug(`building block ${parent.header.number + 1n}`);
    const vm = await this.writerVm();
    const state = vm.stateManager;
    const parentRoot = this.chain.stateRootOf(parent);
    if (!equalsBytes(await state.getStateRoot(), parentRoot)) await state.setStateRoot(parentRoot);
    const timestamp = this.opts.clock.timestampFor(parent.header, requestedTimestamp);
    const blockVm = await this.blockVM(vm, parent, this.chain.state.snapshot(parentRoot), timestamp);
    const { block, included, results } = await this.assemble(blockVm, parent, timestamp);
    const receipts = results.map((result, i): StoredReceipt => toStoredReceipt(result, included[i]));
    const minedHashes = included.map((p) => p.hashHex);
    let poolSettled: Promise<unknown> = Promise.resolve();
    try {
      await this.chain.append(block, receipts, {
        ops: this.pool.removalOps(minedHashes),
        landed: () => {
          this.settled(block, requestedTimestamp !== undefined);
          poolSettled = this.pool.afterBlock(minedHashes);
        },
      });
    } catch (error) {
      this.chain.state.discard();
      await state.setStateRoot(parentRoot);
      throw error;
    }
    this.opts.log.debug(`block ${block.header.number} landed with ${included.length} transactions`);
    await poolSettled;
    return { block, included };
  }

  /**
   * Builds `count` empty blocks on the head, the first at `timestamp`, each later one `interval`
   * seconds on (without the VM where {@link EmptyBlockBuilder} can tell what it would do), and
   * lands them in one batch; answers the last one's timestamp.
   */
  private async buildEmptyRun(count: number, timestamp: bigint, interval: bigint): Promise<bigint> {
    const head = this.chain.head();
    const vm = await this.writerVm();
    const state = vm.stateManager;
    const headRoot = this.chain.stateRootOf(head);
    if (!equalsBytes(await state.getStateRoot(), headRoot)) await state.setStateRoot(headRoot);
    const run: NewBlock[] = [];
    let parent = head;
    let snapshot = this.chain.state.snapshot(headRoot);
    // The landing of the run before took its share of the event loop: others first.
    let yieldAt = performance.now();
    try {
      for (let i = 0; i < count; i++) {
        if (performance.now() >= yieldAt) {
          await yieldToEventLoop();
          yieldAt = performance.now() + WORK_BETWEEN_YIELDS_MS;
        }
        const blockTimestamp = this.opts.clock.timestampFor(parent.header, i === 0 ? timestamp : parent.header.timestamp + interval);
        const options = this.headerOptions(parent, blockTimestamp);
        const common = this.chain.commons.at({ number: parent.header.number + 1n, timestamp: blockTimestamp });
        const block =
          (await this.emptyBlocks.build(snapshot, parent, blockTimestamp, common, options)) ??
          (await assembleBlock(await this.blockVM(vm, parent, snapshot, blockTimestamp), parent, blockTimestamp, [], options)).block;
        // The next block reads the state this one left from memory, as a block on the head does.
        snapshot = this.chain.state.built(snapshot, block.header.stateRoot);
        run.push({ block, receipts: [] });
        parent = block;
      }
      await this.chain.appendAll(run, { landed: () => this.settled(parent, true) });
    } catch (error) {
      this.chain.state.discard();
      await state.setStateRoot(headRoot);
      throw error;
    }
    this.opts.log.debug(`blocks ${run[0].block.header.number}–${parent.header.number} landed, empty`);
    return parent.header.timestamp;
  }

  /** The VM over the chain's writer state, made on the first block built. */
  private writerVm(): Promise<VM> {
    this.vm ??= this.createVm().then((vm) => {
      this.opts.watch?.(vm);
      return vm;
    });
    return this.vm;
  }

  /** A block built for the chain landed: the clock and the one-block settings move on. */
  private settled(block: Block, requestedTimestamp: boolean): void {
    this.opts.clock.landed(block.header.timestamp, requestedTimestamp);
    this.opts.next.landed();
  }

  /**
   * The VM the block after `parent`, on the state `snapshot` holds, runs on: the flat one from
   * Byzantium on, else the writer's (`writerVm`).
   */
  private async blockVM(writerVm: VM, parent: Block, snapshot: StateSnapshot, timestamp: bigint): Promise<VM> {
    if (!this.chain.commons.at({ number: parent.header.number + 1n, timestamp }).gteHardfork(Hardfork.Byzantium)) return writerVm;
    if (this.flat === undefined) {
      const state = new FlatState(snapshot, writerVm.common, this.chain.state.writer);
      this.flat = { state, vm: await createChainVM(this.chain, writerVm.common, state) };
      this.opts.watch?.(this.flat.vm);
    }
    this.flat.state.reset(snapshot);
    return this.flat.vm;
  }

  /** Runs the pool's executable transactions on `vm` into a new block on `parent`. */
  private async assemble(vm: VM, parent: Block, timestamp: bigint) {
    const options = this.headerOptions(parent, timestamp);
    const candidates = this.pool.executables(options.baseFee);
    const root = this.chain.stateRootOf(parent);
    await this.chain.state.readyForBlock(
      root,
      candidates.map((pooled) => pooled.tx),
      { coinbase: options.coinbase, senders: candidates.map((pooled) => pooled.sender) },
    );
    // On a fork, each transaction's reads are watched: one that waits for the remote again and again has the rest of what it reads fetched at once.
    const state = this.chain.state.forked && vm.stateManager instanceof FlatState ? vm.stateManager : undefined;
    const beforeRun = state === undefined ? undefined : (pooled: PooledTx) => state.watchReads(this.chain.state.watchFor(root, txRequest(pooled.tx, pooled.sender), true));
    try {
      return await assembleBlock(vm, parent, timestamp, candidates, { ...options, beforeRun });
    } finally {
      state?.watchReads(undefined);
    }
  }

  /** The coinbase, gas limit and base fee of a block on `parent`. */
  private headerOptions(parent: Block, timestamp = parent.header.timestamp + 1n) {
    const { next, log } = this.opts;
    const common = this.chain.commons.at({ number: parent.header.number + 1n, timestamp });
    return { coinbase: next.coinbase, gasLimit: next.gasLimitOn(parent.header), baseFee: next.baseFeeOn(parent.header, common), log };
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
