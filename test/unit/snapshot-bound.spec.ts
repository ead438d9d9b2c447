// A flat snapshot carries the accounts of the chain of snapshots before it when it flattens that
// chain, up to a bound (src/caches.ts), newest first: what it leaves out it reads from its trie again.
import { Account, Address, bytesToUnprefixedHex } from '@ethereumjs/util';
import { expect } from 'chai';
import { CACHE_LIMITS } from '../../src/caches.js';
import { StateFacts, StateSnapshot, type StateReader } from '../../src/state/snapshot.js';

const addressOf = (n: number) => new Address(Uint8Array.from({ length: 20 }, (_, i) => (i < 16 ? 0xab : (n >> (8 * (19 - i))) & 0xff)));
const keyOf = (n: number) => bytesToUnprefixedHex(addressOf(n).bytes);

/** A trie view that knows every account at nonce `n` and counts what it is asked. */
function trieView(asked: number[]): () => Promise<StateReader> {
  return async () => ({
    getAccount: async (address: Address) => {
      const n = Number(BigInt(`0x${bytesToUnprefixedHex(address.bytes).slice(32)}`));
      asked.push(n);
      return new Account(BigInt(n), 1n);
    },
    getStorage: async () => new Uint8Array(),
    getCode: async () => new Uint8Array(),
  });
}

describe('state snapshots: the carried accounts', () => {
  const { snapshotDepth, snapshotCarriedAccounts } = CACHE_LIMITS;
  const perBlock = Math.ceil((snapshotCarriedAccounts * 1.5) / snapshotDepth);

  /** A head after `snapshotDepth` blocks that each changed `perBlock` new accounts (block b: accounts b*perBlock…). */
  function flattenedHead(asked: number[]): StateSnapshot {
    let head = new StateSnapshot(new Uint8Array(32), trieView(asked), new StateFacts());
    for (let block = 0; block < snapshotDepth; block++) {
      const changes = new Map<string, Account>();
      for (let i = 0; i < perBlock; i++) changes.set(keyOf(block * perBlock + i), new Account(7n, BigInt(block)));
      head = head.child(Uint8Array.from({ length: 32 }, () => block + 1), trieView(asked), changes);
    }
    return head;
  }

  it('are at most the bound once the chain flattens', () => {
    const head = flattenedHead([]);
    const total = snapshotDepth * perBlock;
    const held = Array.from({ length: total }, (_, n) => head.peek(keyOf(n))).filter((account) => account !== undefined);
    expect(total).to.be.above(snapshotCarriedAccounts);
    expect(held.length).to.equal(snapshotCarriedAccounts);
  });

  it('are the most recently changed ones; the others are read from the trie again', async () => {
    const asked: number[] = [];
    const head = flattenedHead(asked);
    const newest = (snapshotDepth - 1) * perBlock;
    expect(head.peek(keyOf(newest))?.balance).to.equal(BigInt(snapshotDepth - 1));
    expect(head.peek(keyOf(0))).to.equal(undefined);
    expect((await head.account(addressOf(0)))?.nonce).to.equal(0n);
    expect(asked).to.deep.equal([0]);
  });
});
