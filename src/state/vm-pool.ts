import type { Block } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { CACHE_LIMITS } from '../caches.js';

export interface VmLease {
  vm: VM;
  /** Gives the VM back for the next call on the same block; call once its last run has reverted. */
  release(): void;
}

/**
 * VMs for calls (eth_call, eth_estimateGas), kept per block: creating one (EVM, precompiles, opcode
 * table, a state view) costs more than most calls do. A call borrows an idle VM on its block's
 * state, runs each attempt between a checkpoint and a revert — so the VM goes back exactly as it
 * came, with its caches warm — and returns it. A VM serves one call at a time: concurrent calls
 * get VMs of their own. Idle VMs of the most recently used few blocks are kept.
 */
export class VmPool {
  /** block hash → idle VMs, least recently used block first */
  private readonly idle = new Map<string, VM[]>();

  constructor(
    private readonly create: (block: Block, stateRoot: Uint8Array) => Promise<VM>,
    private readonly blocksKept: number = CACHE_LIMITS.callVmBlocks,
    private readonly perBlock: number = CACHE_LIMITS.callVmsPerBlock,
  ) {}

  /** A VM on `block` over the state `stateRoot` (the block's, or the one state edits left on it). */
  async acquire(block: Block, stateRoot: Uint8Array): Promise<VmLease> {
    const key = `${bytesToHex(block.hash())}:${bytesToHex(stateRoot)}`;
    const vm = this.idle.get(key)?.pop() ?? (await this.create(block, stateRoot));
    let released = false;
    return {
      vm,
      release: () => {
        if (released) return;
        released = true;
        this.put(key, vm);
      },
    };
  }

  private put(key: string, vm: VM): void {
    const vms = this.idle.get(key) ?? [];
    this.idle.delete(key);
    this.idle.set(key, vms);
    if (vms.length < this.perBlock) vms.push(vm);
    while (this.idle.size > this.blocksKept) this.idle.delete(this.idle.keys().next().value as string);
  }
}
