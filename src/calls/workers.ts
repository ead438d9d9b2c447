import { Worker } from 'node:worker_threads';
import type { Block } from '@ethereumjs/block';
import { Hardfork } from '@ethereumjs/common';
import { Address, bytesToHex } from '@ethereumjs/util';
import type { TransactionCall } from '../../generated/types.js';
import type { Chain } from '../chain/chain.js';
import type { Logger } from '../log.js';
import { CallFailure, type CallOffload } from '../state/execution.js';
import { HEADERS_SENT, type FromWorker, type ReadRequest, type RunResult, type ToWorker, type WorkerSetup } from './protocol.js';

/**
 * Calls a worker takes at once before the next goes elsewhere: to a less busy worker, or run on
 * the main thread, which then shares the work instead of only queueing it.
 */
const MAX_IN_FLIGHT = 3;

interface Slot {
  worker: Worker;
  ready: boolean;
  inFlight: number;
  /** hashes of the blocks whose headers were sent to the worker last (see HEADERS_SENT) */
  headers: string[];
}

interface Pending {
  slot: Slot;
  resolve(value: Uint8Array | bigint): void;
  reject(error: Error): void;
}

/**
 * eth_call and eth_estimateGas on worker threads, so calls use more than the one core the rest
 * of the node runs on. Each worker runs the same Executor on a VM and flat state of its own; its
 * snapshots read what they lack from the main thread's (one message per account, slot or code,
 * then kept), and follow the chain block by block with each block's account changes, as the main
 * thread's do. Calls before Byzantium (their receipts need a state root) stay on the main thread,
 * as do calls that find every worker busy or none ready: a call that finds them so starts one
 * more, up to `count`, so workers are started only as the load asks for them.
 */
export class CallWorkers implements CallOffload {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly chain: Chain,
    /** the most workers to start; one that fails is not replaced */
    private count: number,
    private readonly log: Pick<Logger, 'error'>,
  ) {
    chain.state.onLanded((parentRoot, root, changes) => {
      if (this.slots.length === 0) return;
      const list: [string, Uint8Array | null][] = [...changes].map(([key, account]) => [key, account === null ? null : account.serialize()]);
      for (const slot of this.slots) slot.worker.postMessage({ type: 'landed', parentRoot, root, changes: list } satisfies ToWorker);
    });
    chain.state.onReset(() => {
      for (const slot of this.slots) slot.worker.postMessage({ type: 'reset' } satisfies ToWorker);
    });
  }

  call(request: TransactionCall, block: Block): Promise<Uint8Array> | undefined {
    return this.dispatch('call', request, block) as Promise<Uint8Array> | undefined;
  }

  estimateGas(request: TransactionCall, block: Block): Promise<bigint> | undefined {
    return this.dispatch('estimate', request, block) as Promise<bigint> | undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
    for (const pending of this.pending.values()) pending.reject(new Error('the node is shutting down'));
    this.pending.clear();
  }

  private dispatch(kind: 'call' | 'estimate', request: TransactionCall, block: Block): Promise<Uint8Array | bigint> | undefined {
    if (this.count === 0 || this.closed) return undefined;
    if (!this.chain.commons.at(block.header).gteHardfork(Hardfork.Byzantium)) return undefined;
    let slot: Slot | undefined;
    for (const candidate of this.slots) if (candidate.ready && (slot === undefined || candidate.inFlight < slot.inFlight)) slot = candidate;
    if (slot === undefined || slot.inFlight >= MAX_IN_FLIGHT) {
      // Every worker busy (or none yet): one more starts, if the count allows and none is starting.
      if (this.slots.length < this.count && this.slots.every((s) => s.ready)) this.startOne();
      return undefined;
    }
    const id = this.nextId++;
    slot.inFlight++;
    const chosen = slot;
    const done = new Promise<Uint8Array | bigint>((resolve, reject) => this.pending.set(id, { slot: chosen, resolve, reject }));
    const hash = bytesToHex(block.hash());
    // The header goes along only when the worker may not have it: most calls are on the head.
    const known = slot.headers.includes(hash);
    if (!known) {
      slot.headers.push(hash);
      if (slot.headers.length > HEADERS_SENT) slot.headers.shift();
    }
    slot.worker.postMessage({ type: 'run', id, kind, request, hash, header: known ? undefined : block.header.toJSON() } satisfies ToWorker);
    return done;
  }

  private startOne(): void {
    const setup: WorkerSetup = { genesis: this.chain.spec };
    const slot: Slot = { worker: new Worker(new URL('./worker.js', import.meta.url), { workerData: setup }), ready: false, inFlight: 0, headers: [] };
    slot.worker.unref();
    slot.worker.on('message', (message: FromWorker) => this.heard(slot, message));
    slot.worker.on('error', (error) => this.failed(slot, error));
    this.slots.push(slot);
  }

  private heard(slot: Slot, message: FromWorker): void {
    if (message.type === 'ready') slot.ready = true;
    else if (message.type === 'read') void this.answer(slot, message);
    else this.finished(message);
  }

  private finished(result: RunResult): void {
    const pending = this.pending.get(result.id);
    if (pending === undefined) return;
    this.pending.delete(result.id);
    pending.slot.inFlight--;
    if (result.fault !== undefined) pending.reject(new CallFailure(result.fault));
    else if (result.error !== undefined) pending.reject(new Error(`call worker: ${result.error}`));
    else pending.resolve(result.value!);
  }

  /** Reads for a worker what its snapshot lacks, from the main thread's snapshot of the same root. */
  private async answer(slot: Slot, read: ReadRequest): Promise<void> {
    let value: Uint8Array | null;
    try {
      value = await this.read(read);
    } catch (error) {
      slot.worker.postMessage({ type: 'read-answer', id: read.id, error: (error as Error).message } satisfies ToWorker);
      return;
    }
    slot.worker.postMessage({ type: 'read-answer', id: read.id, value } satisfies ToWorker);
  }

  private async read(read: ReadRequest): Promise<Uint8Array | null> {
    if (read.kind === 'blockHash') return (await this.chain.blockByNumber(read.number))?.hash() ?? null;
    const snapshot = this.chain.state.snapshot(read.root);
    const address = new Address(read.address);
    const account = await snapshot.account(address);
    if (read.kind === 'account') return account === undefined ? null : account.serialize();
    if (account === undefined) return new Uint8Array(0);
    if (read.kind === 'storage') return snapshot.storage(address, account.storageRoot, read.key!);
    return account.isContract() ? snapshot.code(address, account.codeHash) : new Uint8Array(0);
  }

  /** A worker that died takes no more calls and is not replaced; the calls it held fail, and are logged (a bug). */
  private failed(slot: Slot, error: Error): void {
    this.log.error('a call worker failed', error.stack ?? error.message);
    this.slots.splice(this.slots.indexOf(slot), 1);
    this.count--;
    for (const [id, pending] of this.pending) {
      if (pending.slot !== slot) continue;
      this.pending.delete(id);
      pending.reject(error);
    }
  }
}
