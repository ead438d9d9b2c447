// kill -9 around the dev-node controls: impersonated transactions the node acknowledged survive it
// (the pool's journal records their senders), and a reset interrupted at any moment leaves the old
// chain or the new one, never a mix.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { spawnNode, type ChildNode } from '../helpers/child-node.js';
import { rpc } from '../helpers/rpc.js';
import { inspect, sleep, WALLETS } from './support.js';

const IMPERSONATED = '0x00000000000000000000000000000000000a11ce';
const SINK = '0x000000000000000000000000000000000000dead';

describe('durability: dev-node controls across kill -9', function () {
  this.timeout(120_000);
  let dir: string;
  const running: ChildNode[] = [];
  const start = async (flags: string[] = []) => {
    const node = await spawnNode(dir, flags);
    running.push(node);
    return node;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evm-node-devkill-'));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((node) => node.kill9()));
    await rm(dir, { recursive: true, force: true });
  });

  it('an acknowledged impersonated transaction is back in the pool, with its sender, and mines', async () => {
    let node = await start(['--no-mining']);
    await rpc(node.url, 'anvil_setBalance', [IMPERSONATED, '0xde0b6b3a7640000']);
    await rpc(node.url, 'anvil_impersonateAccount', [IMPERSONATED]);
    const hashes = [];
    for (let i = 0; i < 3; i++) hashes.push(await rpc<string>(node.url, 'eth_sendTransaction', [{ from: IMPERSONATED, to: SINK, value: `0x${(i + 1).toString(16)}` }]));
    await node.kill9();

    node = await start(['--no-mining']);
    const snapshot = await inspect(node.url, [IMPERSONATED]);
    expect([...snapshot.pooled.values()].map((p) => [p.hash, p.from, p.category])).to.have.deep.members(hashes.map((h) => [h, IMPERSONATED, 'pending']));
    await rpc(node.url, 'evm_mine', []);
    for (const hash of hashes) expect(await rpc<{ from: string; status: string }>(node.url, 'eth_getTransactionReceipt', [hash])).to.include({ from: IMPERSONATED, status: '0x1' });
    expect(await rpc<string>(node.url, 'eth_getBalance', [SINK, 'latest'])).to.equal('0x6');
  });

  it('a state edit the node answered survives kill -9, and so does the block built on it', async () => {
    let node = await start();
    await rpc(node.url, 'anvil_setBalance', [IMPERSONATED, '0x2a']);
    await node.kill9();
    node = await start();
    expect(await rpc<string>(node.url, 'eth_getBalance', [IMPERSONATED, 'latest'])).to.equal('0x2a');
    await rpc(node.url, 'evm_mine', []);
    await node.kill9();
    node = await start();
    expect(await rpc<string>(node.url, 'eth_getBalance', [IMPERSONATED, 'latest'])).to.equal('0x2a');
  });

  it('a reset killed at any moment leaves the old chain or the new one, whole', async () => {
    const node = await start(['--no-mining']);
    await rpc(node.url, 'anvil_mine', ['0x1f4']);
    const oldHead = await rpc<{ hash: string; number: string }>(node.url, 'eth_getBlockByNumber', ['latest', false]);
    const genesis = await rpc<{ hash: string }>(node.url, 'eth_getBlockByNumber', ['0x0', false]);
    await node.stop();
    const outcomes = new Set<string>();
    for (const delayMs of [0, 5, 15, 40, 80]) {
      let child = await start(['--no-mining']);
      const head = await rpc<{ hash: string }>(child.url, 'eth_getBlockByNumber', ['latest', false]);
      // Start from the old chain each time: a reset that landed earlier is undone by mining back.
      if (head.hash === genesis.hash) await rpc(child.url, 'anvil_mine', ['0x1f4']);
      void rpc(child.url, 'anvil_reset', [{ genesis: { balance: '0x2a' } }]).catch(() => undefined);
      await sleep(delayMs);
      await child.kill9();
      child = await start(['--no-mining']);
      const after = await rpc<{ hash: string; number: string }>(child.url, 'eth_getBlockByNumber', ['latest', false]);
      const balance = await rpc<string>(child.url, 'eth_getBalance', [WALLETS[0].address, 'latest']);
      if (after.number === '0x0') {
        // The new chain: its genesis and its balances, nothing of the old blocks.
        expect(balance).to.equal('0x2a');
        expect(await rpc(child.url, 'eth_getBlockByNumber', ['0x1', false])).to.equal(null);
        outcomes.add('new');
        await rpc(child.url, 'anvil_reset', [{ genesis: { balance: '0x21e19e0c9bab2400000' } }]);
        expect((await rpc<{ hash: string }>(child.url, 'eth_getBlockByNumber', ['0x0', false])).hash).to.equal(genesis.hash);
      } else {
        // The old chain, whole: its head, and every block's state readable.
        expect(after.number).to.equal(oldHead.number);
        await inspect(child.url, []);
        outcomes.add('old');
      }
      await child.stop();
    }
    expect(outcomes.size).to.be.at.least(1);
  });
});
