import type { Common } from '@ethereumjs/common';
import { bigIntToAddressBytes, bigIntToBytes, setLengthLeft } from '@ethereumjs/util';
import type { ForkState } from './fork-state.js';
import type { RemoteBlock } from './proof-records.js';

/** The system contracts' addresses and their rings' lengths, as the EIPs fix them. */
const BEACON_ROOTS = 0x000f3df6d732807ef1319fb7b8bb8522d0beac02n;
const HISTORY_STORAGE = 0x0000f90827f1c53a10cb7a02335b175320002935n;
const HISTORY_SERVE_WINDOW = 8191n;
const BEACON_ROOTS_RING = 8191n;
const SYSTEM_ADDRESS = 0xfffffffffffffffffffffffffffffffffffffffen;
const slotKey = (slot: bigint) => setLengthLeft(bigIntToBytes(slot), 32);
/** The request queues' counters every block's system call reads: excess, count, head and tail. */
const QUEUE_SLOTS = [0n, 1n, 2n, 3n].map(slotKey);
const REQUEST_QUEUES = [
  { eip: 7002, address: 0x00000961ef480eb55e80d19ad83579a64c007002n },
  { eip: 7251, address: 0x0000bbddc7ce488642fb579f8b00f3a590007251n },
];

/**
 * What the system calls at the start of a block on `block`'s state read, each a fetch to start: the
 * system contracts' accounts and code, the system address, EIP-2935's slot for the parent's hash,
 * the request queues' counters, and — knowing the new block (`next`; else it is the block after
 * `block`, its time unknown) — EIP-4788's slot for its time.
 */
export function systemReads(forkState: ForkState, block: RemoteBlock, common: Common, next?: { number: bigint; timestamp: bigint }): (() => Promise<void> | undefined)[] {
  const reads: (() => Promise<void> | undefined)[] = [];
  const contract = (address: bigint, slots: Uint8Array[] = []) => {
    const bytes = bigIntToAddressBytes(address);
    reads.push(() => forkState.callTarget(block, bytes), ...slots.map((slot) => () => forkState.slot(block, bytes, slot)));
  };
  const parent = next === undefined ? block.number : next.number - 1n;
  if (common.isActivatedEIP(4788)) contract(BEACON_ROOTS, next === undefined ? [] : [slotKey(next.timestamp % BEACON_ROOTS_RING)]);
  if (common.isActivatedEIP(2935)) contract(HISTORY_STORAGE, [slotKey(parent % HISTORY_SERVE_WINDOW)]);
  for (const { eip, address } of REQUEST_QUEUES) if (common.isActivatedEIP(eip)) contract(address, QUEUE_SLOTS);
  if (reads.length > 0) reads.push(() => forkState.account(block, bigIntToAddressBytes(SYSTEM_ADDRESS)));
  return reads;
}
