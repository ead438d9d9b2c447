// An empty block without the VM. A block without transactions changes the state only through the
// forks' system writes: EIP-4788 stores the timestamp (and the zero beacon root) in its ring,
// EIP-2935 the parent's hash in its own, and the EIP-7002 and 7251 system calls dequeue their
// queues. The first two are plain storage writes (the VM library makes them so too); the two calls
// run contract code, and change nothing when that code is the EIPs' own and their queues are empty
// and their fee counters zero: then the block is built here, writing those slots into the writer
// state directly. Anything else (a queue holding requests, other code at those addresses, a fork
// before the merge or after Osaka, extra EIPs) leaves the block to the VM.
import { createBlock, genRequestsRoot, type Block } from '@ethereumjs/block';
import { ConsensusType, Hardfork, type Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, bigIntToAddressBytes, bigIntToBytes, equalsBytes, hexToBytes, KECCAK256_NULL, KECCAK256_RLP, setLengthLeft } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { sha256 } from 'ethereum-cryptography/sha256.js';
import systemContracts from '../chain/system-contracts.json' with { type: 'json' };
import type { StateSnapshot } from '../state/snapshot.js';

/** What a block carries beyond what its parent and the forks decide (see NextBlock). */
export interface EmptyBlockHeader {
  coinbase: Address;
  gasLimit: bigint;
  baseFee: bigint;
}

const BEACON_ROOTS = new Address(bigIntToAddressBytes(0x000f3df6d732807ef1319fb7b8bb8522d0beac02n));
const ZERO_ROOT = new Uint8Array(32);
const EMPTY_BLOOM = new Uint8Array(256);
const slotKey = (slot: bigint) => setLengthLeft(bigIntToBytes(slot), 32);
/** The request queues' counters: excess, count, head and tail (EIP-7002 and EIP-7251 alike). */
const QUEUE_SLOTS = [0n, 1n, 2n, 3n].map(slotKey);
/** The EIPs' system contracts that run code each block, with the code hash of the EIP's own contract. */
const REQUEST_QUEUES = [
  { eip: 7002, param: 'withdrawalRequestPredeployAddress' },
  { eip: 7251, param: 'consolidationRequestPredeployAddress' },
].map(({ eip, param }) => {
  const [, contract] = Object.entries(systemContracts).find(([address]) => address.endsWith(String(eip)))!;
  return { eip, param, codeHash: keccak256(hexToBytes(contract.code as `0x${string}`)) };
});

/**
 * The beacon-root half of the EIP-4788 ring, as far as this builder has seen it: the contract's
 * storage root after the last block it built, and root slots known to be empty under that root.
 * Writing a zero to an empty slot changes nothing, so a block skips it (a trie walk a block): the
 * dev chain's blocks write zero roots only, so once a lap of the ring has emptied a slot it stays
 * empty while nothing else writes there — which the storage root, unchanged since, vouches for.
 */
interface BeaconRing {
  storageRoot: Uint8Array;
  emptyRootSlots: Set<bigint>;
}

/**
 * Builds empty blocks on the writer state, whose trie holds the state of the snapshot each block
 * is built on (see the top of this file).
 */
export class EmptyBlockBuilder {
  private ring?: BeaconRing;

  constructor(private readonly writer: MerkleStateManager) {}

  /** The empty block on `parent` at `timestamp` of fork `common`, or undefined when only the VM can tell what it does. */
  async build(snapshot: StateSnapshot, parent: Block, timestamp: bigint, common: Common, header: EmptyBlockHeader): Promise<Block | undefined> {
    if (!handles(common)) return undefined;
    for (const queue of REQUEST_QUEUES) {
      if (common.isActivatedEIP(queue.eip) && !(await queueIdle(snapshot, new Address(bigIntToAddressBytes(common.param(queue.param))), queue.codeHash))) return undefined;
    }
    const number = parent.header.number + 1n;
    const parentHash = parent.hash();
    const beacon = common.isActivatedEIP(4788) ? await contractAt(snapshot, BEACON_ROOTS) : undefined;
    const rootSlot = beacon === undefined ? undefined : await this.writeBeaconRoot(beacon.storageRoot, timestamp, common.param('historicalRootsLength'));
    if (common.isActivatedEIP(2935)) {
      const history = new Address(bigIntToAddressBytes(common.param('historyStorageAddress')));
      if ((await contractAt(snapshot, history)) !== undefined) {
        await this.writer.putStorage(history, slotKey((number - 1n) % common.param('historyServeWindow')), parentHash);
      }
    }
    const stateRoot = await this.writer.getStateRoot();
    if (rootSlot !== undefined) {
      this.ring!.emptyRootSlots.add(rootSlot);
      this.ring!.storageRoot = (await this.writer.getAccount(BEACON_ROOTS))!.storageRoot;
    }
    const keccak = common.customCrypto.keccak256 ?? keccak256;
    return createBlock(
      {
        header: {
          parentHash,
          coinbase: header.coinbase,
          stateRoot,
          transactionsTrie: KECCAK256_RLP,
          receiptTrie: KECCAK256_RLP,
          logsBloom: EMPTY_BLOOM,
          number,
          gasLimit: header.gasLimit,
          gasUsed: 0n,
          timestamp,
          mixHash: keccak(parentHash),
          baseFeePerGas: common.isActivatedEIP(1559) ? header.baseFee : undefined,
          withdrawalsRoot: common.isActivatedEIP(4895) ? KECCAK256_RLP : undefined,
          blobGasUsed: common.isActivatedEIP(4844) ? 0n : undefined,
          excessBlobGas: common.isActivatedEIP(4844) ? parent.header.calcNextExcessBlobGas(common) : undefined,
          parentBeaconBlockRoot: common.isActivatedEIP(4788) ? ZERO_ROOT : undefined,
          requestsHash: common.isActivatedEIP(7685) ? genRequestsRoot([], common.customCrypto.sha256 ?? sha256) : undefined,
        },
        transactions: [],
        withdrawals: common.isActivatedEIP(4895) ? [] : undefined,
      },
      { common },
    );
  }

  /**
   * EIP-4788's writes into the contract whose storage root is `storageRoot`: the timestamp, and the
   * zero root, skipped where the slot is known empty. Answers the root slot, empty once the block
   * is built (the caller then records it, with the storage root after the block).
   */
  private async writeBeaconRoot(storageRoot: Uint8Array, timestamp: bigint, ringLength: bigint): Promise<bigint> {
    const index = timestamp % ringLength;
    const rootSlot = index + ringLength;
    await this.writer.putStorage(BEACON_ROOTS, slotKey(index), bigIntToBytes(timestamp));
    if (this.ring === undefined || !equalsBytes(this.ring.storageRoot, storageRoot)) this.ring = { storageRoot, emptyRootSlots: new Set() };
    if (!this.ring.emptyRootSlots.has(rootSlot)) await this.writer.putStorage(BEACON_ROOTS, slotKey(rootSlot), ZERO_ROOT);
    return rootSlot;
  }
}

/** Forks whose empty blocks this module knows: from the merge up to Osaka (and its blob-parameter forks), no extra EIPs. */
function handles(common: Common): boolean {
  return common.consensusType() === ConsensusType.ProofOfStake && !common.gteHardfork(Hardfork.Amsterdam) && common.eips().length === 0;
}

/** The account at `address` if it holds code (what the VM library checks before its system writes). */
async function contractAt(snapshot: StateSnapshot, address: Address) {
  const account = await snapshot.account(address);
  return account !== undefined && !equalsBytes(account.codeHash, KECCAK256_NULL) ? account : undefined;
}

/**
 * Whether the system call to the request queue at `address` changes nothing: no account there
 * (the VM then calls nothing), or the EIP's own code with its counters all zero.
 */
async function queueIdle(snapshot: StateSnapshot, address: Address, codeHash: Uint8Array): Promise<boolean> {
  const account = await snapshot.account(address);
  if (account === undefined) return true;
  if (!equalsBytes(account.codeHash, codeHash)) return false;
  for (const slot of QUEUE_SLOTS) if ((await snapshot.storage(address, account.storageRoot, slot)).length > 0) return false;
  return true;
}
