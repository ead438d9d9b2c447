import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultError } from '../generated/index.js';
import { projectRoot } from '../src/contract.js';
import { spawnNode, type ChildNode } from './helpers/child-node.js';
import { rpc } from './helpers/rpc.js';

const FIXTURES = join(projectRoot(), 'test', 'fixtures', 'execution-apis');
const HEAD = '0xd226371d0b1551adb03fb52b71f08e3e11247fe9b1af994768af8cdaa8e7dcd7';

describe('start --import: importing a chain while serving it', () => {
  let dir: string;
  let node: ChildNode;
  const seen: unknown[] = [];

  before(async function () {
    this.timeout(120_000);
    dir = await mkdtemp(join(tmpdir(), 'evm-node-import-'));
    node = await spawnNode(dir, ['--genesis', join(FIXTURES, 'genesis.json'), '--import', join(FIXTURES, 'chain.rlp'), '--no-mining']);
    const deadline = Date.now() + 100_000;
    for (;;) {
      const status = await rpc(node.url, 'eth_syncing');
      seen.push(status);
      // Done once the import's last block is the head: asked after eth_syncing, the block number may
      // already show the import's first blocks while the answer before it came before the import began.
      if (status === false && (await rpc<string>(node.url, 'eth_blockNumber')) === '0x36') break;
      if (Date.now() > deadline) throw new Error(`import did not finish\n${node.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  after(async () => {
    await node?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('reports progress in eth_syncing as decimal strings while the import runs', () => {
    const progress = seen.filter((status) => status !== false) as { startingBlock: string; currentBlock: string; highestBlock: string }[];
    expect(progress, 'no eth_syncing answer caught the import under way').to.not.be.empty;
    for (const status of progress) {
      expect(resultError('eth_syncing', status)).to.equal(null);
      expect(status.highestBlock).to.equal('54');
      expect(Number(status.currentBlock)).to.be.within(Number(status.startingBlock), 54);
    }
  });

  it('answers false once the import is done', async () => {
    expect(await rpc(node.url, 'eth_syncing')).to.equal(false);
  });

  it('serves the imported chain up to its head', async () => {
    const head = await rpc<{ hash: string; number: string }>(node.url, 'eth_getBlockByNumber', ['latest', false]);
    expect(head).to.include({ number: '0x36', hash: HEAD });
  });

  it('sets safe and finalized from the headfcu.json beside the chain file', async () => {
    const finalized = await rpc<{ hash: string }>(node.url, 'eth_getBlockByNumber', ['finalized', false]);
    expect(finalized.hash).to.equal(HEAD);
  });
});
