// The forks' system contracts (EIP-4788 beacon roots, EIP-2935 block hashes, EIP-7002 withdrawal and EIP-7251
// consolidation request queues), as the dev genesis deploys them, for cases run as blocks: the queues empty and
// idle, or holding counters and requests; and transactions that add requests to them or read their fee.
import type { PrefixedHexString } from '@ethereumjs/util';
import systemContracts from '../../../src/chain/system-contracts.json' with { type: 'json' };
import type { AccountSpec, Step } from '../case.js';
import type { Random } from '../random.js';
import { SENDERS, type Signer } from '../signer.js';

const hexBytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
const slot = (n: bigint) => hexBytes(n.toString(16).padStart(64, '0'));
const address = (eip: number) => Object.keys(systemContracts).find((a) => a.endsWith(String(eip))) as PrefixedHexString;

/** The request queues: their address, the storage words a request takes in the queue (its sender's among them), its calldata's length. */
const QUEUES = [
  { address: address(7002), words: 3, input: 56 },
  { address: address(7251), words: 4, input: 96 },
];
const INHIBITOR = 2n ** 256n - 1n;

/** A queue's storage: none (idle) as often as not, else counters (excess, count, head, tail) and the requests between head and tail. */
function queueStorage(random: Random, words: number): [Uint8Array, Uint8Array][] {
  if (random.chance(0.5)) return [];
  const excess = random.chance(0.1) ? INHIBITOR : BigInt(random.int(4));
  const count = BigInt(random.int(3));
  const head = BigInt(random.int(3));
  const tail = head + BigInt(random.int(4));
  const storage: [Uint8Array, Uint8Array][] = [[slot(0n), slot(excess)], [slot(1n), slot(count)], [slot(2n), slot(head)], [slot(3n), slot(tail)]];
  for (let index = head; index < tail; index++) {
    for (let word = 0n; word < BigInt(words); word++) storage.push([slot(4n + index * BigInt(words) + word), random.bytes(32)]);
  }
  return storage.filter(([, value]) => value.some((byte) => byte !== 0));
}

/** The four contracts, the queues with storage of `random`'s choosing. */
export function systemAccounts(random: Random): AccountSpec[] {
  return Object.entries(systemContracts).map(([at, contract]) => ({
    address: at as PrefixedHexString,
    nonce: BigInt(contract.nonce),
    code: hexBytes(contract.code),
    storage: QUEUES.find((queue) => queue.address === at) === undefined ? [] : queueStorage(random, QUEUES.find((queue) => queue.address === at)!.words),
  }));
}

/** A transaction to a queue: a request (its calldata's length, a fee of a few wei, or too little) or a read of the fee (no calldata). */
export function queueTransaction(random: Random, signer: Signer): Step {
  const queue = random.pick(QUEUES);
  const request = random.chance(0.8);
  const data = request ? random.bytes(queue.input) : new Uint8Array(0);
  const value = request ? BigInt(random.int(4)) : 0n;
  return { kind: 'tx', raw: signer.sign(random.int(SENDERS.length), { type: 2, to: queue.address, data, value, gasLimit: 200_000n, maxFeePerGas: 2n * 10n ** 9n, maxPriorityFeePerGas: 1n }) };
}
