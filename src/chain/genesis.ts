import { createBlock, type Block } from '@ethereumjs/block';
import { Common, parseGethGenesis, parseGethGenesisState, type ChainConfig, type GethGenesis } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import {
  Account,
  createAddressFromString,
  hexToBytes,
  setLengthLeft,
  type PrefixedHexString,
} from '@ethereumjs/util';

import { nativeCrypto } from '../crypto/native.js';
import { premergeLibraryParams } from './common-params.js';
import { lazyKzg } from '../crypto/kzg.js';

export type { GethGenesis };

/** A geth-format genesis as a data dir keeps it; the dev chain's is marked, so a restart knows its accounts' keys may be shown. */
export type NodeGenesis = GethGenesis & { evmNodeDev?: boolean; blobGasUsed?: string };

/**
 * The chain's Common, with every fork of the genesis config, set to the fork active at genesis.
 * It carries KZG, without which @ethereumjs/tx cannot decode a block's blob transactions.
 */
export function commonFromGenesis(genesis: GethGenesis): Common {
  const params = parseGethGenesis(genesis, 'evm-node');
  // @ethereumjs/common turns each blobSchedule entry into targetBlobGasPerBlock/maxBlobGasPerBlock,
  // yet reads `target`/`max` for the BPO forks (EIP-7892): without them a BPO block throws. Give both.
  for (const [fork, entry] of Object.entries((genesis.config as { blobSchedule?: Record<string, { target: number; max: number }> }).blobSchedule ?? {})) {
    const custom = params.customHardforks?.[fork];
    if (custom !== undefined && /^bpo\d+$/.test(fork)) custom.params = { ...custom.params, target: entry.target, max: entry.max };
  }
  const common = new Common({
    // parseGethGenesis answers the chain config in a shape its own type does not declare.
    chain: params as unknown as ChainConfig,
    hardfork: params.hardfork,
    // Native secp256k1 and keccak where their binaries load (sender recovery is ~30x faster).
    customCrypto: { ...nativeCrypto, kzg: lazyKzg },
  });
  // Every library's parameters in one place, so any Common of this chain (per-fork copies
  // included) can answer header, transaction and EVM questions alike, without re-merging them.
  premergeLibraryParams(common);
  common.setHardforkBy({ blockNumber: 0n, timestamp: BigInt(genesis.timestamp ?? 0) });
  return common;
}

/** Writes the genesis `alloc` into an empty state and commits it; answers the state root. */
export async function writeGenesisState(genesis: GethGenesis, state: MerkleStateManager): Promise<Uint8Array> {
  const accounts = parseGethGenesisState(genesis);
  await state.checkpoint();
  for (const [addressHex, entry] of Object.entries(accounts)) {
    const address = createAddressFromString(addressHex);
    const [balance, code, storage, nonce] = Array.isArray(entry) ? entry : [entry];
    await state.putAccount(address, new Account(BigInt(nonce ?? '0x0'), BigInt(balance ?? '0x0')));
    if (code !== undefined && code !== '0x') await state.putCode(address, hexToBytes(code as PrefixedHexString));
    for (const [slot, value] of storage ?? []) {
      await state.putStorage(address, setLengthLeft(hexToBytes(slot), 32), hexToBytes(value));
    }
  }
  await state.commit();
  return state.getStateRoot();
}

const optional = (value: unknown): PrefixedHexString | undefined =>
  value === undefined || value === null ? undefined : (value as PrefixedHexString);

/** The genesis block of a geth-format genesis, as geth builds it (header defaults per active fork). */
export function genesisBlock(g: NodeGenesis, common: Common, stateRoot: Uint8Array): Block {
  return createBlock(
    {
      header: {
        number: 0n,
        nonce: optional(g.nonce) ? setLengthLeft(hexToBytes(g.nonce as PrefixedHexString), 8) : undefined,
        timestamp: optional(g.timestamp),
        extraData: optional(g.extraData),
        gasLimit: optional(g.gasLimit),
        difficulty: optional(g.difficulty),
        mixHash: optional(g.mixHash),
        coinbase: optional(g.coinbase),
        baseFeePerGas: optional(g.baseFeePerGas),
        excessBlobGas: optional(g.excessBlobGas),
        blobGasUsed: optional(g.blobGasUsed),
        stateRoot,
      },
      withdrawals: common.isActivatedEIP(4895) ? [] : undefined,
    },
    { common, setHardfork: false },
  );
}
