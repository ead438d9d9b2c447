import type { VM } from '@ethereumjs/vm';
import { CACHE_LIMITS } from '../caches.js';

export interface VmLease {
  vm: VM;
  /** Gives the VM back for the next call of its kind; call once its last run has reverted. */
  release(): void;
  /** Lets the VM go without giving it back: a run that threw may have left its state mid-way. */
  discard(): void;
}

/**
 * VMs for calls (eth_call, eth_estimateGas), kept by kind: creating one (EVM, precompiles, opcode
 * table, a state) costs more than most calls do. A call borrows an idle VM of its kind — one per
 * fork over a flat state it moves to the call's block, or one per block over that block's trie
 * view — runs each attempt between a checkpoint and a revert, so the VM goes back exactly as it
 * came, with its caches warm, and returns it. A VM serves one call at a time: concurrent calls get
 * VMs of their own. Idle VMs of the most recently used few kinds are kept.
 */
export class VmPool {
  /** kind → idle VMs, least recently used kind first */
  private readonly idle = new Map<string, VM[]>();

  constructor(
    private readonly kindsKept: number = CACHE_LIMITS.callVmKinds,
    private readonly perKind: number = CACHE_LIMITS.callVmsPerKind,
  ) {}

  async acquire(kind: string, create: () => Promise<VM>): Promise<VmLease> {
    const vm = this.idle.get(kind)?.pop() ?? (await create());
    let released = false;
    return {
      vm,
      release: () => {
        if (released) return;
        released = true;
        this.put(kind, vm);
      },
      discard: () => {
        released = true;
      },
    };
  }

  private put(kind: string, vm: VM): void {
    const vms = this.idle.get(kind) ?? [];
    this.idle.delete(kind);
    this.idle.set(kind, vms);
    if (vms.length < this.perKind) vms.push(vm);
    while (this.idle.size > this.kindsKept) this.idle.delete(this.idle.keys().next().value as string);
  }
}
