// The two engines the differential test runs side by side: the @ethereumjs packages as installed (with the
// edits of patches/) and their pristine copies (pristine.ts). Both are the same set of modules; the harness
// reads them through one type, the pristine packages'.
import type { CustomCrypto } from '@ethereumjs/common';
import { lazyKzg } from '../../src/crypto/kzg.js';
import { keccakInWasm, nativeCrypto } from '../../src/crypto/native.js';
import { pristineEngine, type PristineEngine } from './pristine.js';

export type Engine = PristineEngine;
export type Common = InstanceType<Engine['common']['Common']>;
export type MerkleStateManager = InstanceType<Engine['statemanager']['MerkleStateManager']>;
export type VM = Awaited<ReturnType<Engine['vm']['createVM']>>;

/**
 * The crypto both engines are given, the node's own (libsecp256k1 recovery, WebAssembly keccak): it is
 * not what the engines are compared on, and recovering every sender in JavaScript would cost the harness
 * ~2 ms a transaction on each side.
 */
export const CRYPTO = { ...nativeCrypto, kzg: lazyKzg } as CustomCrypto;

/** The edited packages, as the node imports them. */
export async function editedEngine(): Promise<Engine> {
  const [util, rlp, common, mpt, statemanager, tx, block, evm, vm] = await Promise.all([
    import('@ethereumjs/util'),
    import('@ethereumjs/rlp'),
    import('@ethereumjs/common'),
    import('@ethereumjs/mpt'),
    import('@ethereumjs/statemanager'),
    import('@ethereumjs/tx'),
    import('@ethereumjs/block'),
    import('@ethereumjs/evm'),
    import('@ethereumjs/vm'),
  ]);
  // The same modules under the edited packages' own declarations, whose classes TypeScript tells apart by their private members.
  return { util, rlp, common, mpt, statemanager, tx, block, evm, vm } as unknown as Engine;
}

export interface Engines {
  edited: Engine;
  pristine: Engine;
}

export async function engines(): Promise<Engines> {
  const [edited, pristine] = await Promise.all([editedEngine(), pristineEngine(), keccakInWasm()]);
  return { edited, pristine };
}

/** Every library's parameter sets merged into `common`, as the node's chain Commons hold them (src/chain/common-params.ts). */
export function withLibraryParams(e: Engine, common: Common): Common {
  for (const params of [e.block.paramsBlock, e.tx.paramsTx, e.evm.paramsEVM, e.vm.paramsVM]) common.updateParams(params as never);
  return common;
}
