import type { Block } from '@ethereumjs/block';
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import type { VM } from '@ethereumjs/vm';

/** What the EVM reads of past blocks (BLOCKHASH): the canonical block at a height. */
export interface BlockHistory {
  blockByNumber(number: bigint): Promise<Block | undefined>;
}

export type VmLibrary = typeof import('@ethereumjs/vm');
export type EvmLibrary = typeof import('@ethereumjs/evm');
type ParamsListener = (sets: object[]) => void;

let library: Promise<{ vm: VmLibrary; evm: EvmLibrary }> | undefined;
/** The EVM's and the VM's parameter sets, once the library has loaded. */
let executionParams: object[] | undefined;
const paramsListeners: ParamsListener[] = [];

/**
 * @ethereumjs/vm with @ethereumjs/evm (its precompiles bring most of @noble/curves: ~1.3 MB of
 * modules, a third of what the node would load), imported on first use: a node that only answers
 * reads never loads them, and one that executes pays ~0.1 s once, on its first block or call.
 * Before it resolves, the EVM's and the VM's parameter sets go to {@link whenVmLibraryLoads}'s listeners.
 */
export async function loadVmLibrary(): Promise<VmLibrary> {
  return (await loadLibraries()).vm;
}

/** @ethereumjs/evm alone (its precompiles list, say), loaded with the VM as {@link loadVmLibrary} loads it. */
export async function loadEvmLibrary(): Promise<EvmLibrary> {
  return (await loadLibraries()).evm;
}

function loadLibraries(): Promise<{ vm: VmLibrary; evm: EvmLibrary }> {
  library ??= Promise.all([import('@ethereumjs/vm'), import('@ethereumjs/evm')]).then(([vm, evm]) => {
    const sets = [evm.paramsEVM, vm.paramsVM];
    for (const listener of paramsListeners.splice(0)) listener(sets);
    executionParams = sets;
    return { vm, evm };
  });
  return library;
}

/** Runs `listener` with the EVM's and VM's parameter sets once the library loads (at once if it has). */
export function whenVmLibraryLoads(listener: ParamsListener): void {
  if (executionParams === undefined) paramsListeners.push(listener);
  else listener(executionParams);
}

function evmHistory(history: BlockHistory): EVMMockBlockchainInterface {
  const view: EVMMockBlockchainInterface = {
    async getBlock(number: number) {
      const block = await history.blockByNumber(BigInt(number));
      if (block === undefined) throw new Error(`no canonical block ${number}`);
      return block;
    },
    async putBlock() {},
    shallowCopy: () => view,
  };
  return view;
}

/** A VM over `state` whose fork follows each block it runs; BLOCKHASH reads `history`. */
export async function createChainVM(history: BlockHistory, common: Common, state: StateManagerInterface): Promise<VM> {
  const { createVM } = await loadVmLibrary();
  return createVM({ common: common.copy(), stateManager: state, blockchain: evmHistory(history) });
}
