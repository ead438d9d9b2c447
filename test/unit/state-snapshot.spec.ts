// The head's flat snapshot is carried from block to block with the accounts each block changed; it
// must agree with the trie at every head, for accounts read before a block changed them too.
import { createAddressFromString, type Address } from '@ethereumjs/util';
import { expect } from 'chai';
import { encodeFunctionData, type Abi, type Hex } from 'viem';
import { contracts, deployContract } from '../helpers/contracts.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { devAddress, devKey, signTx } from '../helpers/transactions.js';

const abi = () => contracts().StateOps.abi as unknown as Abi;
const input = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: abi(), functionName, args });
const recipient = (i: number) => `0x${(0xbee0000 + i).toString(16).padStart(40, '0')}` as Hex;

describe('state snapshots', () => {
  let node: TestNode;
  afterEach(() => node.destroy());

  /** Every account at the head, as the head's snapshot has it and as a fresh trie view reads it. */
  async function bothViews(addresses: Address[]) {
    const { chain } = node.node.services;
    const root = chain.head().header.stateRoot;
    const view = await chain.state.scratch(root);
    const snapshot = chain.state.snapshot(root);
    const serialized = async (read: Promise<{ serialize(): Uint8Array } | undefined>) => {
      const account = await read;
      return account === undefined ? null : Buffer.from(account.serialize()).toString('hex');
    };
    return {
      snapshot: await Promise.all(addresses.map((a) => serialized(snapshot.account(a)))),
      trie: await Promise.all(addresses.map((a) => serialized(view.getAccount(a)))),
    };
  }

  it('agrees with the trie after every block, for accounts read at older heads and changed since', async () => {
    node = await startTestNode();
    const ops = await deployContract(node, 'StateOps', [], devKey(5));
    const senders = [6, 7, 8];
    const nonces = senders.map(() => 0);
    const touched = [ops, ...senders.map(devAddress), ...Array.from({ length: 12 }, (_, i) => recipient(i)), '0x0000000000000000000000000000000000000000'];
    const scripts: ((s: number, k: number) => { to: Hex; value?: bigint; data?: Hex; gas?: bigint })[] = [
      (s, k) => ({ to: recipient((s * 4 + k) % 12), value: 1000n + BigInt(k) }),
      (_s, k) => ({ to: ops, data: input('write', [BigInt(k), BigInt(k + 1)]), gas: 200_000n }),
      (_s, k) => ({ to: ops, data: input('spawn', [BigInt(k)]), value: 7n, gas: 500_000n }),
      (_s, k) => ({ to: ops, data: input('spawnAndDestroy', [BigInt(k)]), value: 3n, gas: 500_000n }),
      (s, k) => ({ to: ops, data: input('pay', [recipient((s + k) % 12)]), value: 11n, gas: 200_000n }),
    ];
    for (let k = 0; k < 4; k++) {
      // Read every account at this head first, so older snapshots hold what later blocks change.
      const before = await bothViews(touched.map((a) => createAddressFromString(a)));
      expect(before.snapshot).to.deep.equal(before.trie);
      for (const [i, s] of senders.entries()) {
        for (const script of scripts) {
          const tx = script(s, k);
          await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(s), nonce: nonces[i]++, to: tx.to, value: tx.value ?? 0n, data: tx.data, gas: tx.gas ?? 21_000n })]);
        }
      }
    }
    const children = await Promise.all(
      Array.from({ length: 3 }, async () => (await node.call('eth_call', [{ to: ops, data: input('lastChild') }, 'latest'])).slice(26)),
    );
    const after = await bothViews([...touched, ...children.map((c) => `0x${c}`)].map((a) => createAddressFromString(a)));
    expect(after.snapshot).to.deep.equal(after.trie);
    expect(after.trie.filter((a) => a === null)).to.have.length(0);
  });

});
