// Forking a chain whose history began with proof-of-work (the execution-apis test chain: PoW blocks,
// 18 of them with uncles, then the merge, then Shanghai to Osaka). The forked chain knows the
// remote's forks no further back than the fork block's header tells, so each remote block is read
// under the fork its own header's fields name; its uncles' headers are asked of the remote.
import { expect } from 'chai';
import { CountingProxy, startFork, type ForkingNode } from '../helpers/fork-remote.js';
import type { TestNode } from '../helpers/node.js';
import { startPowChainNode, type PowChainNode } from '../helpers/pow-chain.js';
import { rpc } from '../helpers/rpc.js';

type Block = Record<string, unknown> & { uncles: string[] };

describe('forking: a remote history that began with proof-of-work', () => {
  let pow: PowChainNode;
  let remote: TestNode;
  let proxy: CountingProxy;
  let fork: ForkingNode;
  let head: number;
  before(async () => {
    pow = await startPowChainNode();
    remote = pow.node;
    proxy = await CountingProxy.start(remote.url);
    fork = await startFork(proxy.url);
    head = Number(await remote.call('eth_blockNumber', []));
  });
  after(async () => {
    await fork?.destroy();
    await proxy?.close();
    await pow?.destroy();
  });

  const blocks = (url: string, full: boolean) => Promise.all(Array.from({ length: head + 1 }, (_, n) => rpc<Block>(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, full])));

  it('serves every block as the remote has it — proof-of-work ones, their total difficulty and their uncles included', async () => {
    const [theirs, ours] = await Promise.all([blocks(remote.url, true), blocks(fork.url, true)]);
    expect(theirs.filter((block) => block.uncles.length > 0)).to.have.length(18);
    for (const [n, block] of theirs.entries()) expect(ours[n], `block ${n}`).to.deep.equal(block);
  });

  it('answers the uncle methods as the remote does', async () => {
    const withUncles = (await blocks(remote.url, false)).filter((block) => block.uncles.length > 0);
    for (const block of withUncles) {
      const number = block.number as string;
      for (const [method, params] of [
        ['eth_getUncleCountByBlockNumber', [number]],
        ['eth_getUncleCountByBlockHash', [block.hash]],
        ['eth_getUncleByBlockNumberAndIndex', [number, '0x0']],
        ['eth_getUncleByBlockHashAndIndex', [block.hash, '0x0']],
        ['eth_getUncleByBlockHashAndIndex', [block.hash, '0x1']],
      ] as const) {
        expect(await rpc(fork.url, method, [...params]), `${method} ${number}`).to.deep.equal(await rpc(remote.url, method, [...params]));
      }
    }
  });
});
