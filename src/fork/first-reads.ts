import type { Common } from '@ethereumjs/common';
import { createZeroAddress, type Address } from '@ethereumjs/util';
import type { ForkState } from './fork-state.js';
import { systemReads } from './system-reads.js';

/**
 * What a new fork reads before it serves, all at once (one round trip, a few requests): the dev
 * accounts, whose balances are set on top of the fork block's state, and the zero address, which
 * calls without a sender read, as does a block's coinbase. Then, not waited for (a remote that
 * computes proofs one after another, as anvil does, would hold the start ~0.1 s), what the first
 * block built on the fork reads of the system contracts its forks call each block — their accounts
 * and code, the system address that calls them, EIP-2935's slot for the fork block's hash and the
 * request queues' counters. A block's system calls read those one after another: seven round trips
 * before the first transaction on a Prague fork was mined (380 ms at 25 ms a request), one now (the
 * slots of EIP-4788's ring go by the block's time, which no read ahead can know: a guess from the
 * clock would be fetched again at each restart, which asks the remote nothing otherwise).
 */
export async function readFirst(forkState: ForkState, common: Common, accounts: Address[]): Promise<void> {
  const block = forkState.base;
  await Promise.all([createZeroAddress(), ...accounts].map(async (address) => forkState.account(block, address.bytes)));
  // Read ahead of need: a block that needs one of them waits for its fetch, or fetches it again if
  // this one failed (offline, a fork cache an older node wrote lacks them; a remote that failed).
  for (const read of systemReads(forkState, block, common)) void (async () => read())().catch(() => undefined);
}
