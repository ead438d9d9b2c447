// Where the chain lives: in memory unless a data dir is given (each start fresh, nothing on disk),
// in the data dir when one is (resumed on the next start), wiped at start with --fresh.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { signTransfer, WALLETS } from '../durability/support.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { DataDirRefused } from '../../src/storage/storage-fault.js';

describe('storage: a chain in memory by default, in a data dir on request, wiped with --fresh', () => {
  let root: string;
  const nodes: TestNode[] = [];
  const start = async (...args: Parameters<typeof startTestNode>) => {
    const node = await startTestNode(...args);
    nodes.push(node);
    return node;
  };
  const mineOne = async (node: TestNode, nonce = 0) => {
    const { hash, raw } = signTransfer(WALLETS[1], nonce);
    await node.call('eth_sendRawTransaction', [raw]);
    return hash;
  };

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'evm-node-fresh-'));
  });
  afterEach(async () => {
    for (const node of nodes.splice(0)) await node.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('keeps the chain in memory without a data dir: each start begins at the genesis, and nothing is written', async () => {
    const first = await start({ dataDir: undefined }, join(root, 'unused'));
    const hash = await mineOne(first);
    expect(await first.call('eth_blockNumber', [])).to.equal('0x1');
    const genesis = (await first.call('eth_getBlockByNumber', ['0x0', false]))!.hash;
    await first.stop();

    const second = await start({ dataDir: undefined }, join(root, 'unused'));
    expect(await second.call('eth_blockNumber', [])).to.equal('0x0');
    expect(await second.call('eth_getTransactionByHash', [hash])).to.equal(null);
    // The same flags give the same dev genesis, so deployment addresses repeat from start to start.
    expect((await second.call('eth_getBlockByNumber', ['0x0', false]))!.hash).to.equal(genesis);
    expect(await readdir(root)).to.deep.equal([]);
  });

  it('serves a chain in memory like one on disk: a second transaction from the same sender, its receipt, and the health check', async () => {
    const node = await start({ dataDir: undefined }, join(root, 'unused'));
    await mineOne(node, 0);
    const hash = await mineOne(node, 1);
    expect((await node.call('eth_getTransactionReceipt', [hash]))!.status).to.equal('0x1');
    expect(await (await fetch(`${node.url}/health`)).json()).to.include({ ok: true, number: 2 });
  });

  it('with --fresh, wipes the data dir’s chain and starts again from the genesis', async () => {
    const dir = join(root, 'data');
    const first = await start({}, dir);
    const hash = await mineOne(first);
    await first.stop();

    const fresh = await start({ fresh: true }, dir);
    expect(await fresh.call('eth_blockNumber', [])).to.equal('0x0');
    expect(await fresh.call('eth_getTransactionByHash', [hash])).to.equal(null);
    await mineOne(fresh);
    await fresh.stop();
    // What the fresh chain holds is kept as usual.
    const resumed = await start({}, dir);
    expect(await resumed.call('eth_blockNumber', [])).to.equal('0x1');
  });

  it('with --fresh, creates a data dir that does not exist yet', async () => {
    const node = await start({ fresh: true }, join(root, 'new', 'data'));
    expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
    expect(await readdir(join(root, 'new', 'data'))).to.include('CURRENT');
  });

  it('with --fresh, refuses a dir holding files that are not LevelDB’s, and leaves every file as it was', async () => {
    const dir = join(root, 'project');
    await mkdir(dir);
    await writeFile(join(dir, 'CURRENT'), 'MANIFEST-000001\n');
    await writeFile(join(dir, 'notes.txt'), 'keep me');
    let refusal: unknown;
    await startTestNode({ fresh: true }, dir).catch((error: unknown) => (refusal = error));
    expect(refusal).to.be.instanceOf(DataDirRefused);
    expect((refusal as Error).message).to.equal(
      `--fresh will not wipe ${dir}: besides a database it holds notes.txt, so it may not be a data dir of the node's; move those away or choose another --data-dir`,
    );
    expect((await readdir(dir)).sort()).to.deep.equal(['CURRENT', 'notes.txt']);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).to.equal('keep me');
  });
});
