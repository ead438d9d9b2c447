// geth's state and block overrides (internal/ethapi/override): what a call (eth_call, eth_estimateGas,
// eth_createAccessList, debug_traceCall, eth_simulateV1) sees instead of the block's state and header.
// They are applied to a private state only; nothing of them reaches the chain.
import { createBlock, type Block, type HeaderData } from '@ethereumjs/block';
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import type { PrecompileFunc } from '@ethereumjs/evm';
import { createAddressFromString, hexToBytes, setLengthLeft, toChecksumAddress, type Address, type PrefixedHexString } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { BlockOverrides, StateOverride } from '../../generated/types.js';

/** An override the node refuses, in geth's words (-32000). */
export class OverrideError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OverrideError';
  }
}

/** What a call runs with instead of the block's state and header. */
export interface CallOverrides {
  state?: StateOverride;
  block?: BlockOverrides;
  /** the state to run on instead of the block's own (a replay's, part-way through the block) */
  vm?: VM;
}

const big = (hex: string) => BigInt(hex);
/** An EVM precompile table's key: the address without 0x, lowercase. */
const precompileKey = (address: string) => address.slice(2).toLowerCase();
const word = (hex: string) => setLengthLeft(hexToBytes(hex as PrefixedHexString), 32);

/**
 * Applies `overrides` to `state` as geth does: accounts in address order; nonce, code, balance, then
 * the whole storage (`state`) or some slots (`stateDiff`). `precompiles`, when given, is the table
 * the EVM will run (address without 0x → function): a precompile moved elsewhere
 * (movePrecompileToAddress) runs there, and its own address becomes an ordinary account.
 */
export async function applyStateOverrides(state: StateManagerInterface, overrides: StateOverride, precompiles?: Map<string, PrecompileFunc>): Promise<void> {
  const addresses = Object.keys(overrides).sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
  const lower = new Set(addresses.map((a) => a.toLowerCase()));
  const movedTo = new Set<string>();
  for (const key of addresses) {
    const account = overrides[key];
    const address = createAddressFromString(key);
    const checksummed = toChecksumAddress(address.toString());
    if (movedTo.has(address.toString())) throw new OverrideError(`account ${checksummed} has already been overridden by a precompile`);
    const precompile = precompiles?.get(precompileKey(key));
    if (account.movePrecompileToAddress !== undefined) {
      if (precompile === undefined) throw new OverrideError(`account ${checksummed} is not a precompile`);
      const destination = account.movePrecompileToAddress.toLowerCase();
      if (lower.has(destination)) throw new OverrideError(`account ${toChecksumAddress(destination)} is already overridden`);
      precompiles!.set(precompileKey(destination), precompile);
      movedTo.add(destination);
    }
    if (precompile !== undefined) precompiles!.delete(precompileKey(key));
    if (account.nonce !== undefined) await state.modifyAccountFields(address, { nonce: big(account.nonce) });
    if (account.code !== undefined) await state.putCode(address, hexToBytes(account.code as PrefixedHexString));
    if (account.balance !== undefined) await state.modifyAccountFields(address, { balance: big(account.balance) });
    if (account.state !== undefined && account.stateDiff !== undefined) throw new OverrideError(`account ${checksummed} has both 'state' and 'stateDiff'`);
    if (account.state !== undefined) {
      // The account's storage is replaced: it must exist to hold the new storage.
      if ((await state.getAccount(address)) === undefined) await state.modifyAccountFields(address, {});
      await state.clearStorage(address);
      for (const [slot, value] of Object.entries(account.state)) await state.putStorage(address, word(slot), word(value));
    }
    if (account.stateDiff !== undefined) {
      for (const [slot, value] of Object.entries(account.stateDiff)) await state.putStorage(address, word(slot), word(value));
    }
  }
}

/** Whether applying `overrides` changes the precompile table `precompiles` (a move, or an override at a precompile's address). */
export function movesPrecompiles(overrides: StateOverride, precompiles: ReadonlyMap<string, PrecompileFunc>): boolean {
  return Object.entries(overrides).some(([address, account]) => account.movePrecompileToAddress !== undefined || precompiles.has(precompileKey(address)));
}

/** Runs `vm`'s EVM with `table` as its precompiles (as moved by state overrides) instead of its fork's. */
export function usePrecompiles(vm: VM, table: Map<string, PrecompileFunc>): void {
  const evm = vm.evm as { getPrecompile(address: unknown): PrecompileFunc | undefined };
  // The fork's own addresses stay warm, as geth warms them: only where the code runs changes.
  evm.getPrecompile = (address) => table.get(typeof address === 'string' ? address.slice(2).padStart(40, '0').toLowerCase() : precompileKey((address as Address).toString()));
}

/** The block a call with block overrides runs in: `block`'s header with the overridden members. */
export function withBlockOverrides(block: Block, overrides: BlockOverrides, commonAt: (header: { number: bigint; timestamp: bigint }) => Common): Block {
  if (overrides.beaconRoot !== undefined) throw new OverrideError('block override "beaconRoot" is not supported for this RPC method');
  if (overrides.withdrawals !== undefined) throw new OverrideError('block override "withdrawals" is not supported for this RPC method');
  const h = block.header;
  const number = overrides.number === undefined ? h.number : big(overrides.number);
  const timestamp = overrides.time === undefined ? h.timestamp : big(overrides.time);
  const common = commonAt({ number, timestamp });
  const header: HeaderData = {
    ...h.toJSON(),
    number,
    timestamp,
    gasLimit: overrides.gasLimit === undefined ? h.gasLimit : big(overrides.gasLimit),
    coinbase: (overrides.feeRecipient as PrefixedHexString | undefined) ?? h.coinbase,
    mixHash: (overrides.prevRandao as PrefixedHexString | undefined) ?? h.mixHash,
    difficulty: overrides.difficulty === undefined ? h.difficulty : big(overrides.difficulty),
    baseFeePerGas: overrides.baseFeePerGas === undefined ? h.baseFeePerGas : big(overrides.baseFeePerGas),
  };
  let target: Block;
  try {
    target = createBlock({ header: { ...header, gasUsed: 0n } }, { common, setHardfork: false, skipConsensusFormatValidation: true, freeze: false });
  } catch (error) {
    throw new OverrideError(`invalid block overrides: ${(error as Error).message.replace(/ \(block header.*$/s, '')}`);
  }
  if (overrides.blobBaseFee !== undefined) overrideBlobBaseFee(target, big(overrides.blobBaseFee));
  return target;
}

/** Makes `block` charge `fee` per blob gas (BLOBBASEFEE reads it too), whatever its excess blob gas says. */
export function overrideBlobBaseFee(block: Block, fee: bigint): void {
  Object.defineProperty(block.header, 'getBlobGasPrice', { value: () => fee });
}

/**
 * The block context of a call on an overridden `block`: the block itself, or for an unpriced call
 * the same with a zero base fee, as geth runs such calls (so they need no funds for gas).
 */
export function unpriced(block: Block, priced: boolean, common: Common): Block {
  if (priced || block.header.baseFeePerGas === undefined) return block;
  const context = createBlock({ header: { ...block.header.toJSON(), baseFeePerGas: 0n } }, { common, setHardfork: false, skipConsensusFormatValidation: true, freeze: false });
  if (Object.hasOwn(block.header, 'getBlobGasPrice')) overrideBlobBaseFee(context, block.header.getBlobGasPrice());
  return context;
}
