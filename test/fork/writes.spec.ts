// Forking: transactions on top of the fork block. They change the fork, never the remote; the
// blocks they land in carry real state roots — the very roots the remote computes for the same
// block — and proofs of the forked state verify against the fork's own headers.
import { expect } from 'chai';
import { encodeAbiParameters, keccak256, type Hex } from 'viem';
import type { AccountProof } from '../../generated/types.js';
import { verifyProof } from '../helpers/proof.js';
import { deployContract } from '../helpers/contracts.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';
import { balanceOfData, CountingProxy, direct, seedRemote, startFork, transferData, type ForkingNode, type SeededRemote } from '../helpers/fork-remote.js';

const hex = (n: bigint) => `0x${n.toString(16)}`;
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
/** The token's balance slot of `holder`: its mapping is slot 3 (name, symbol and totalSupply come first). */
const slotOf = (holder: Hex) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, 3n]));

describe('forking: writes on top of the fork', () => {
  let remote: SeededRemote;
  let proxy: CountingProxy;
  let fork: ForkingNode;

  before(async () => {
    remote = await seedRemote();
    proxy = await CountingProxy.start(remote.node.url);
    fork = await startFork(proxy.url, { blockNumber: remote.forkBlock });
  });
  after(async () => {
    await fork?.destroy();
    await proxy?.close();
    await remote?.node.destroy();
  });

  const balanceOf = (node: { call: ForkingNode['call'] }, holder: Hex, block = 'latest') => node.call('eth_call', [{ to: remote.token, data: balanceOfData(holder) }, block]);

  it('an impersonated holder’s transfer moves its tokens on the fork, and the remote’s stay', async () => {
    const [from, to] = [remote.holders[0], remote.holders[1]];
    const [fromBefore, toBefore] = [BigInt(await balanceOf(fork, from)), BigInt(await balanceOf(fork, to))];
    await fork.call('anvil_setBalance', [from, hex(10n ** 18n)]);
    await fork.call('anvil_impersonateAccount', [from]);
    const hash = await fork.call('eth_sendTransaction', [{ from, to: remote.token, data: transferData(to, 100n) }]);
    expect((await fork.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x1');
    expect(BigInt(await balanceOf(fork, from))).to.equal(fromBefore - 100n);
    expect(BigInt(await balanceOf(fork, to))).to.equal(toBefore + 100n);
    expect(BigInt(await direct<string>(remote, 'eth_call', [{ to: remote.token, data: balanceOfData(from) }, 'latest']))).to.equal(fromBefore);
    expect(await direct(remote, 'eth_blockNumber', [])).to.equal(hex(remote.forkBlock));
  });

  it('a proof on the fork after local transactions verifies against the fork’s own latest header', async () => {
    const block = await fork.call('eth_getBlockByNumber', ['latest', false]);
    const keys = [remote.holders[0], remote.holders[1]].map(slotOf);
    const proof = (await fork.call('eth_getProof', [remote.token, keys, block!.number])) as AccountProof;
    await verifyProof(proof, block!.stateRoot);
    expect(BigInt(proof.storageProof![0].value)).to.equal(BigInt(await balanceOf(fork, remote.holders[0])));
  });

  it('a proof at the fork block verifies against the fork block’s header, as the remote’s own does', async () => {
    const at = hex(remote.forkBlock);
    const block = await fork.call('eth_getBlockByNumber', [at, false]);
    const key = slotOf(remote.holders[2]);
    const proof = (await fork.call('eth_getProof', [remote.token, [key], at])) as AccountProof;
    await verifyProof(proof, block!.stateRoot);
    expect(proof).to.deep.equal(await direct(remote, 'eth_getProof', [remote.token, [key], at]));
  });

});

describe('forking: a block mined on the fork has the state root the remote computes for it', () => {
  let remote: SeededRemote;
  let fork: ForkingNode;

  before(async () => {
    remote = await seedRemote({ blocks: 3, perBlock: 12 });
    // No dev balances: the fork's state is the remote's, so the same block must give the same root.
    fork = await startFork(remote.node.url, { blockNumber: remote.forkBlock }, { accounts: 0 });
  });
  after(async () => {
    await fork?.destroy();
    await remote?.node.destroy();
  });

  /**
   * The same transfers, as the same sender, at the same timestamp, on the remote and on the fork:
   * the state roots of both blocks. The senders hold ether from the remote's seeding: an edit of
   * the remote's head state (anvil_setBalance) would change the fork block's state under the fork.
   */
  async function sameBlockOnBoth(transfers: [from: Hex, to: Hex, amount: bigint][]): Promise<[string, string]> {
    const roots: string[] = [];
    for (const node of [remote.node, fork]) {
      const head = await node.call('eth_getBlockByNumber', ['latest', false]);
      await node.call('evm_setAutomine', [false]);
      for (const [from, to, amount] of transfers) {
        await node.call('anvil_impersonateAccount', [from]);
        await node.call('eth_sendTransaction', [{ from, to: remote.token, data: transferData(to, amount), gas: '0x20000', maxFeePerGas: '0x3b9aca000', maxPriorityFeePerGas: '0x1' }]);
      }
      await node.call('evm_mine', [Number(BigInt(head!.timestamp) + 12n)]);
      await node.call('evm_setAutomine', [true]);
      roots.push((await node.call('eth_getBlockByNumber', ['latest', false]))!.stateRoot);
    }
    return roots as [string, string];
  }

  it('for transfers between holders', async () => {
    const [theirs, mine] = await sameBlockOnBoth([[remote.holders[4], remote.holders[5], 7n]]);
    expect(mine).to.equal(theirs);
  });

  it('for a transfer that empties a balance slot, folding trie nodes the fork never fetched', async () => {
    const from = remote.holders[20];
    const all = BigInt(await fork.call('eth_call', [{ to: remote.token, data: balanceOfData(from) }, 'latest']));
    const [theirs, mine] = await sameBlockOnBoth([[from, remote.holders[21], all]]);
    expect(mine).to.equal(theirs);
    expect(await fork.call('eth_getStorageAt', [remote.token, slotOf(from), 'latest'])).to.equal(word(0n));
  });
});

describe('forking: a delete that folds a branch into a sibling the fork never read', () => {
  let remote: TestNode;
  let fork: ForkingNode;
  let token: Hex;
  let holder: Hex | undefined;
  const slotHashNibble = (key: Hex, i: number) => Number.parseInt(keccak256(key).slice(2 + i, 3 + i), 16);
  const slotWord = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;

  before(async () => {
    remote = await startTestNode({ dataDir: undefined });
    token = await deployContract(remote, 'Token', ['Fold', 'F', 10n ** 24n]);
    // A holder whose balance slot sits beside name's, symbol's or totalSupply's (slots 0-2) under a
    // branch of those two alone: emptying it folds the branch into a leaf a transfer never reads.
    const fixed = [slotWord(0), slotWord(1), slotWord(2)];
    const existing = [...fixed, slotOf(DEV_ADDRESSES[0])];
    for (let i = 0; holder === undefined; i++) {
      const candidate = `0x${(0xf01dn + BigInt(i)).toString(16).padStart(40, '0')}` as Hex;
      const key = slotOf(candidate);
      const beside = existing.filter((other) => slotHashNibble(other, 0) === slotHashNibble(key, 0));
      if (beside.length === 1 && fixed.includes(beside[0]) && slotHashNibble(beside[0], 1) !== slotHashNibble(key, 1)) holder = candidate;
    }
    await remote.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: token, data: transferData(holder!, 1000n) }]);
    await remote.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: holder!, value: '0xde0b6b3a7640000' }]);
    fork = await startFork(remote.url, {}, { accounts: 0 });
  });
  after(async () => {
    await fork?.destroy();
    await remote?.destroy();
  });

  it('fetches the sibling by the proof of a key under it, and the block’s root is the remote’s', async () => {
    const roots: string[] = [];
    for (const node of [remote, fork]) {
      const head = await node.call('eth_getBlockByNumber', ['latest', false]);
      await node.call('evm_setAutomine', [false]);
      await node.call('anvil_impersonateAccount', [holder!]);
      await node.call('eth_sendTransaction', [{ from: holder!, to: token, data: transferData(DEV_ADDRESSES[0], 1000n), gas: '0x20000', maxFeePerGas: '0x3b9aca000', maxPriorityFeePerGas: '0x1' }]);
      await node.call('evm_mine', [Number(BigInt(head!.timestamp) + 12n)]);
      roots.push((await node.call('eth_getBlockByNumber', ['latest', false]))!.stateRoot);
    }
    expect(roots[1]).to.equal(roots[0]);
  });
});

