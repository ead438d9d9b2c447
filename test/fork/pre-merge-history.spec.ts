// Forking a chain whose history began with proof-of-work (the execution-apis test chain: PoW blocks,
// 18 of them with uncles, then the merge, then Shanghai to Osaka). The forked chain knows the
// remote's forks no further back than the fork block's header tells, so each remote block is read
// under the fork its own header's fields name.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../src/config.js';
import { importChainFiles } from '../../src/import-chain.js';
import { executionApisFixtures } from '../helpers/execution-apis-fixtures.js';
import { CountingProxy, startFork, type ForkingNode } from '../helpers/fork-remote.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { rpc } from '../helpers/rpc.js';

type Block = Record<string, unknown> & { uncles: string[] };

describe('forking: a remote history that began with proof-of-work', () => {
  let dataDir: string;
  let remote: TestNode;
  let proxy: CountingProxy;
  let fork: ForkingNode;
  let head: number;
  before(async () => {
    const fixtures = executionApisFixtures();
    dataDir = await mkdtemp(join(tmpdir(), 'evm-node-pow-remote-'));
    await importChainFiles(
      { ...DEFAULTS, genesisFlagsGiven: true, dataDir, genesis: join(fixtures, 'genesis.json'), forkchoice: join(fixtures, 'headfcu.json') },
      [join(fixtures, 'chain.rlp')],
      { write: () => undefined },
    );
    remote = await startTestNode({ mining: false }, dataDir);
    proxy = await CountingProxy.start(remote.url);
    fork = await startFork(proxy.url);
    head = Number(await remote.call('eth_blockNumber', []));
  });
  after(async () => {
    await fork?.destroy();
    await proxy?.close();
    await remote?.stop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  const blocks = (url: string, full: boolean) => Promise.all(Array.from({ length: head + 1 }, (_, n) => rpc<Block>(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, full])));

  it('serves every block without uncles as the remote has it, proof-of-work ones and their total difficulty included', async () => {
    const [theirs, ours] = await Promise.all([blocks(remote.url, true), blocks(fork.url, true)]);
    const plain = theirs.map((block, n) => [n, block] as const).filter(([, block]) => block.uncles.length === 0);
    expect(plain.length).to.be.greaterThan(30);
    for (const [n, block] of plain) expect(ours[n], `block ${n}`).to.deep.equal(block);
  });

  it('serves a block with uncles as the remote has it but for its uncles, which a remote block comes without (docs/forking.md)', async () => {
    const [theirs, ours] = await Promise.all([blocks(remote.url, false), blocks(fork.url, false)]);
    const withUncles = theirs.map((block, n) => [n, block] as const).filter(([, block]) => block.uncles.length > 0);
    expect(withUncles.length).to.equal(18);
    for (const [n, block] of withUncles) expect({ ...ours[n], uncles: block.uncles }, `block ${n}`).to.deep.equal(block);
  });
});
