// Replaying a block's transactions on a private copy of its parent's state, to trace one of them
// or all: the parent's state, the block's system calls, the transactions before the traced one,
// then the traced one with a tracer listening. Nothing reaches the chain's state, and the miner is
// never waited for: committed trie nodes never change, so a replay reads them while blocks land.
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { isEOACode7702Tx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, eoaCode7702RecoverAuthority, equalsBytes, type Address } from '@ethereumjs/util';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import { CACHE_LIMITS } from '../caches.js';
import type { AnswerBudget } from '../format/answer-budget.js';
import { TraceError } from './errors.js';
import { observe, yieldToEventLoop, type ObserveOptions } from './evm-hooks.js';
import type { TracedTransaction, TxTracer } from './tracer.js';
import type { StateStore } from '../state/state-store.js';
import { createChainVM, loadVmLibrary, type BlockHistory } from '../state/vm.js';
import { watchRunOn } from '../state/fork-aware-state.js';
import { txRequest } from '../state/run-request.js';

/** What a replay reads of the chain. */
export interface ReplayChain extends BlockHistory {
  commonAt(header: { number: bigint; timestamp: bigint }): Common;
  /** The state a block's successor was built on: its own root, or the root of edits made on it (anvil_setBalance & co.). */
  stateRootOf(block: Block): Uint8Array;
  readonly state: StateStore;
  blockByHash(hash: Uint8Array): Promise<Block | undefined>;
  /** The senders of a block's transactions, as recorded when it was executed (so none is recovered again). */
  senders(block: Block): Promise<Address[]>;
}


/** The transactions a replay traces: their index in the block, and a fresh tracer for each. */
export type TracerFor = (index: number) => TxTracer | undefined;


export interface TracedResult {
  index: number;
  result: unknown;
}

/** What bounds a replay's traces: each transaction's time, and the bytes of the answer they make together. */
export interface TraceLimits {
  timeoutMs?: number;
  budget?: AnswerBudget;
}

/** Transactions run between yields to the event loop, so a long replay never holds other requests up for long. */
const YIELD_EVERY = 64;

/** Transactions a read-ahead ({@link Replayer.readAhead}) runs side by side, each lane on a state of its own. */
const READ_AHEAD_LANES = 64;
/** How long a read-ahead runs at most: past it the replay fetches the rest as it meets it. */
const READ_AHEAD_MS = 5_000;
/** Work a read-ahead does between yields to the event loop. */
const READ_AHEAD_WORK_MS = 20;
/** Remote blocks read ahead lately: a second replay of one finds its state fetched. */
const READ_AHEAD_KEPT = 64;

/**
 * A transaction as replay runs it: the recorded sender stands in for signature recovery. The
 * transaction itself stays untouched (blocks share theirs); this view inherits everything else.
 */
function withSender(tx: TypedTransaction, sender: Address): TypedTransaction {
  return Object.create(tx, { getSenderAddress: { value: () => sender } }) as TypedTransaction;
}

/** What a tracer learns of `tx` before it runs. */
export function tracedTransaction(tx: TypedTransaction, sender: Address, block: Block, common: Common): TracedTransaction {
  const authorities: Address[] = [];
  if (isEOACode7702Tx(tx)) {
    for (const authorization of tx.authorizationList) {
      try {
        authorities.push(eoaCode7702RecoverAuthority(authorization));
      } catch {
        // An authorization that does not recover is skipped by the EVM too.
      }
    }
  }
  return {
    from: sender,
    to: tx.to,
    gasLimit: tx.gasLimit,
    coinbase: block.header.coinbase,
    authorities,
    rules: { cancun: common.isActivatedEIP(6780), prague: common.isActivatedEIP(7702) },
  };
}

/** Runs a transaction (`run`) on `vm` with `tracer` listening; answers the tracer's result and the run. */
export async function runTraced(
  vm: VM,
  run: () => Promise<RunTxResult>,
  traced: TracedTransaction,
  tracer: TxTracer,
  options: ObserveOptions = {},
): Promise<{ result: unknown; run: RunTxResult }> {
  await tracer.start?.(traced, vm.stateManager);
  const stop = observe(vm, tracer.hooks, options);
  let outcome: RunTxResult;
  try {
    outcome = await run();
  } finally {
    stop();
  }
  return { result: await tracer.finish({ gasUsed: outcome.totalGasSpent }, vm.stateManager), run: outcome };
}

/** Where a replay of a block has got to: its VM, the next transaction, the gas and logs so far. */
interface Position {
  vm: VM;
  next: number;
  gasUsed: bigint;
  logs: number;
  /** the block's senders, read once per position: reading them is a record per transaction of the block */
  senders?: Address[];
  /** the block's parent, whose state the replay started from */
  parent: Block;
  /** whether that state is a forked chain's remote block's, read from the remote as it is met */
  remote: boolean;
}

export class Replayer {
  /** kept replays, oldest first */
  private readonly positions: { key: string; position: Position }[] = [];
  /** how far remote blocks were read ahead ({@link readAhead}), by hash, oldest first */
  private readonly readAheads = new Map<string, number>();

  constructor(private readonly chain: ReplayChain) {}

  /**
   * A VM on a private copy of `block`'s `parent`'s state with the block's system calls applied: the
   * state its first transaction ran on.
   */
  private async blockStart(block: Block, parent: Block): Promise<VM> {
    const common = this.chain.commonAt(block.header);
    // Each replayed transaction commits: its trie nodes must stay in this state's memory, off the disk.
    const vm = await createChainVM(this.chain, common, await this.chain.state.ephemeral(this.chain.stateRootOf(parent)));
    if (common.isActivatedEIP(4788) || common.isActivatedEIP(2935)) {
      // The block builder applies the beacon-root and history system calls as it starts a block.
      const h = block.header;
      const { buildBlock } = await loadVmLibrary();
      await buildBlock(vm, {
        parentBlock: parent,
        headerData: {
          number: h.number,
          timestamp: h.timestamp,
          gasLimit: h.gasLimit,
          coinbase: h.coinbase,
          baseFeePerGas: h.baseFeePerGas,
          excessBlobGas: h.excessBlobGas,
          parentBeaconBlockRoot: h.parentBeaconBlockRoot,
          mixHash: h.mixHash,
        },
        blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true },
      });
    }
    return vm;
  }

  /** A VM on the state `block`'s transaction `index` ran on: its parent's, with the transactions before it run. */
  async before(block: Block, index: number): Promise<VM> {
    if (index < 0 || index >= block.transactions.length) throw new TraceError(`transaction index ${index} out of range for block ${bytesToHex(block.hash())}`);
    const position = await this.start(block, index);
    await this.advance(position, block, index, () => undefined);
    return position.vm;
  }

  /** Replays all of `block`, tracing the transactions `tracerFor` gives a tracer, within `limits`; answers the traced results in block order. */
  async replay(block: Block, tracerFor: TracerFor, limits: TraceLimits = {}): Promise<TracedResult[]> {
    return this.advance(await this.start(block, block.transactions.length), block, block.transactions.length, tracerFor, limits);
  }

  /**
   * Traces `block`'s transaction `index` alone. The replay up to it is kept (the state before it,
   * restored after the trace): another trace of it, or of a later transaction of the block, starts
   * there instead of at the block's start.
   */
  async traceOne(block: Block, index: number, tracer: TxTracer, limits: TraceLimits = {}): Promise<unknown> {
    const key = bytesToHex(block.hash());
    const position = this.resume(key, index) ?? (await this.start(block, index + 1));
    await this.advance(position, block, index, () => undefined);
    const before = { ...position };
    await position.vm.stateManager.checkpoint();
    const [traced] = await this.advance(position, block, index + 1, () => tracer, limits);
    // Only a trace that ran to its end leaves the state sound to go back to (a timeout or the budget stops the EVM mid-call).
    await position.vm.stateManager.revert();
    this.keep(key, before);
    return traced.result;
  }

  /** The replay of block `key` furthest along without passing transaction `index`, taken out of the cache for one caller. */
  private resume(key: string, index: number): Position | undefined {
    let found: number | undefined;
    this.positions.forEach((p, i) => {
      if (p.key === key && p.position.next <= index && (found === undefined || p.position.next > this.positions[found].position.next)) found = i;
    });
    return found === undefined ? undefined : this.positions.splice(found, 1)[0].position;
  }

  private keep(key: string, position: Position): void {
    this.positions.push({ key, position });
    if (this.positions.length > CACHE_LIMITS.tracePositions) this.positions.shift();
  }

  /**
   * `block`'s parent: the canonical block at its number where that is it — for a forked chain's
   * remote block, one fetch instead of two (by hash, then the canonical block at its number, to tell
   * it is the chain's).
   */
  private async parentOf(block: Block): Promise<Block | undefined> {
    const canonical = await this.chain.blockByNumber(block.header.number - 1n);
    return canonical !== undefined && equalsBytes(canonical.hash(), block.header.parentHash) ? canonical : this.chain.blockByHash(block.header.parentHash);
  }

  /** The start of `block`, to replay up to (not including) transaction `until`: its first transaction next. */
  private async start(block: Block, until: number): Promise<Position> {
    if (block.header.number === 0n) throw new TraceError('genesis is not traceable');
    const parent = await this.parentOf(block);
    if (parent === undefined) throw new TraceError(`parent ${block.header.number - 1n} of block ${block.header.number} not found`);
    const remote = this.chain.state.remote(this.chain.stateRootOf(parent));
    const senders = remote ? await this.chain.senders(block) : undefined;
    if (senders !== undefined) await this.readyFor(block, parent, until, senders);
    return { vm: await this.blockStart(block, parent), next: 0, gasUsed: 0n, logs: 0, senders, parent, remote };
  }

  /**
   * On a fork, what replaying a remote block up to transaction `until` reads first, fetched at once:
   * the system contracts its start calls, its coinbase, the senders, the recipients with their code
   * (each a round trip in turn otherwise: 8 before the first transaction of a Prague block ran).
   */
  private async readyFor(block: Block, parent: Block, until: number, senders: Address[]): Promise<void> {
    const { number, timestamp, coinbase } = block.header;
    const txs = block.transactions.slice(0, until);
    await this.chain.state.readyForBlock(this.chain.stateRootOf(parent), txs, { coinbase, senders: senders.slice(0, until), system: { common: this.chain.commonAt(block.header), number, timestamp } });
  }

  /** Runs `block`'s transactions from the position's next up to (not including) `until`, tracing those `tracerFor` gives a tracer. */
  private async advance(position: Position, block: Block, until: number, tracerFor: TracerFor, { timeoutMs, budget }: TraceLimits = {}): Promise<TracedResult[]> {
    const { vm } = position;
    const senders = (position.senders ??= await this.chain.senders(block));
    const results: TracedResult[] = [];
    const { runTx } = await loadVmLibrary();
    if (position.remote) await this.readAhead(block, position.parent, position.next, until, senders);
    for (let index = position.next; index < until; index++) {
      if (index > position.next && index % YIELD_EVERY === 0) await yieldToEventLoop();
      const tx = withSender(block.transactions[index], senders[index]);
      // On a remote block's state, a transaction that waits for the remote again and again has the rest fetched at once.
      if (position.remote) watchRunOn(vm.stateManager, txRequest(tx, senders[index]));
      const run = () => runTx(vm, { tx, block, skipBlockGasLimitValidation: true, skipHardForkValidation: true, blockGasUsed: position.gasUsed });
      const tracer = tracerFor(index);
      let outcome: RunTxResult;
      if (tracer === undefined) {
        outcome = await run();
      } else {
        const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
        const traced = await runTraced(vm, run, tracedTransaction(tx, senders[index], block, vm.common), tracer, { firstLogIndex: position.logs, deadline, budget });
        results.push({ index, result: traced.result });
        outcome = traced.run;
      }
      position.gasUsed += outcome.totalGasSpent;
      position.logs += outcome.receipt.logs.length;
    }
    watchRunOn(vm.stateManager, undefined);
    position.next = Math.max(position.next, until);
    return results;
  }

  /**
   * On a fork, before a remote block's transactions `from`..`until` replay one after another — each
   * fetching what it reads from the remote as it meets it, a round trip at a time, 20–30 for a block
   * of 40 token transfers — runs them side by side, each lane on a private copy of the parent's
   * state, their outcomes dropped: what they read goes out together, in a few round trips. A
   * transaction that reads what one before it wrote reads the parent's value here, and may fetch a
   * key the replay does not need: never an untrue one, all of it being the remote's state at the
   * parent. The first failure stops it (the replay's own read reports it), and so do
   * {@link READ_AHEAD_MS}; no transaction of a block is read ahead twice.
   */
  private async readAhead(block: Block, parent: Block, from: number, until: number, senders: Address[]): Promise<void> {
    const key = bytesToHex(block.hash());
    from = Math.max(from, this.readAheads.get(key) ?? 0);
    if (until - from < 2) return;
    this.readAheads.delete(key);
    this.readAheads.set(key, until);
    if (this.readAheads.size > READ_AHEAD_KEPT) this.readAheads.delete(this.readAheads.keys().next().value as string);
    const { runTx } = await loadVmLibrary();
    const common = this.chain.commonAt(block.header);
    const deadline = Date.now() + READ_AHEAD_MS;
    let stopped = false;
    // Lanes whose reads are all fetched run without a pause: others' requests get a turn now and then.
    let yieldAt = performance.now() + READ_AHEAD_WORK_MS;
    const lane = async (first: number) => {
      try {
        const vm = await createChainVM(this.chain, common, await this.chain.state.ephemeral(this.chain.stateRootOf(parent)));
        for (let index = first; index < until && !stopped && Date.now() < deadline; index += READ_AHEAD_LANES) {
          if (performance.now() >= yieldAt) {
            await yieldToEventLoop();
            yieldAt = performance.now() + READ_AHEAD_WORK_MS;
          }
          const tx = withSender(block.transactions[index], senders[index]);
          watchRunOn(vm.stateManager, txRequest(tx, senders[index]));
          await runTx(vm, { tx, block, skipNonce: true, skipBalance: true, skipBlockGasLimitValidation: true, skipHardForkValidation: true });
        }
      } catch {
        stopped = true;
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_AHEAD_LANES, until - from) }, (_, i) => lane(from + i)));
  }
}
