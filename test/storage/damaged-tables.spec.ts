// Damage inside the data dir's LevelDB tables: bytes flipped in a stopped node's table file, where a
// block, a transaction record or a trie node is stored. LevelDB reads without checking its tables'
// checksums, so the node checks what it reads: the damaged record answers -32000 naming it, /health
// turns 503 with the same words, the damage is logged once, and nothing of it is served as truth.
import { hexToBytes } from '@ethereumjs/util';
import { expect } from 'chai';
import type { Hex } from 'viem';
import type { Logger } from '../../src/log.js';
import { deployEmitter, emit, topic } from '../helpers/emitter-node.js';
import { DEV_ADDRESSES, startRefusal, startTestNode, testLogger, type TestNode } from '../helpers/node.js';
import { rpc } from '../helpers/rpc.js';
import { rpcError } from '../helpers/transactions.js';
import { flipInTable, intoTables, storedValue } from '../helpers/table-damage.js';

async function health(url: string): Promise<{ status: number; body: { ok: boolean; error?: string } }> {
  const res = await fetch(`${url}/health`);
  return { status: res.status, body: (await res.json()) as { ok: boolean; error?: string } };
}

/** Where in a stored block its header's logs bloom lies: past the list prefixes, six hashes and the coinbase. */
const BLOOM_OFFSET = 220;

describe('storage: damage inside a LevelDB table', function () {
  this.timeout(60_000);
  let node: TestNode;
  let dir: string;
  let emitter: Hex;
  /** block number → its hash and one transaction's hash, as the node answered before the damage */
  const blocks: { hash: Hex; tx: Hex; stateRoot: Hex }[] = [];
  const errors: string[] = [];
  const log: Logger = { ...testLogger, error: (message) => errors.push(message) };

  const restart = async () => {
    errors.length = 0;
    node = await startTestNode({}, dir, { log });
  };

  beforeEach(async () => {
    node = await startTestNode();
    dir = node.dataDir;
    blocks.length = 0;
    emitter = await deployEmitter(node);
    for (let i = 0; i < 5; i++) {
      const tx = await emit(node, emitter, [{ topics: [topic(i)], data: BigInt(i) }]);
      const block = (await node.call('eth_getBlockByNumber', [`0x${(i + 2).toString(16)}`, false]))!;
      blocks[i + 2] = { hash: block.hash as Hex, tx, stateRoot: block.stateRoot as Hex };
    }
    await node.stop();
    await intoTables(dir);
  });

  afterEach(() => node.destroy());

  describe('in a block', () => {
    beforeEach(async () => {
      await flipInTable(dir, await storedValue(dir, 'b', hexToBytes(blocks[3].hash)), BLOOM_OFFSET);
      await restart();
    });

    it('answers eth_getBlockByNumber with -32000 naming the block, never a block with another hash or bloom', async () => {
      const error = await rpcError(rpc(node.url, 'eth_getBlockByNumber', ['0x3', false]));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.equal(`storage damage: block ${blocks[3].hash} does not match the checksum stored with it; the data dir's tables are damaged — restore the data dir from a copy`);
    });

    it('answers eth_getBlockByHash of the block with the same error', async () => {
      const error = await rpcError(rpc(node.url, 'eth_getBlockByHash', [blocks[3].hash, true]));
      expect(error.code).to.equal(-32000);
      expect(error.message).to.match(new RegExp(`^storage damage: block ${blocks[3].hash} `));
    });

    it('answers eth_getLogs over a range holding the block with the same error', async () => {
      const error = await rpcError(rpc(node.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [topic(4)] }]));
      expect(error.message).to.match(new RegExp(`^storage damage: block ${blocks[3].hash} `));
    });

    it('turns /health 503 with the damage, once a read met it', async () => {
      expect((await health(node.url)).status).to.equal(200);
      await rpcError(rpc(node.url, 'eth_getBlockByNumber', ['0x3', false]));
      const unhealthy = await health(node.url);
      expect(unhealthy.status).to.equal(503);
      expect(unhealthy.body.ok).to.equal(false);
      expect(unhealthy.body.error).to.match(new RegExp(`^storage damage: block ${blocks[3].hash} `));
    });

    it('logs the damage once, however often the block is read', async () => {
      for (let i = 0; i < 3; i++) await rpcError(rpc(node.url, 'eth_getBlockByNumber', ['0x3', false]));
      expect(errors).to.have.length(1);
      expect(errors[0]).to.match(new RegExp(`^storage damage: block ${blocks[3].hash} `));
    });

    it('goes on serving the blocks around it as they were', async () => {
      expect((await node.call('eth_getBlockByNumber', ['0x2', false]))!.hash).to.equal(blocks[2].hash);
      expect((await node.call('eth_getBlockByNumber', ['0x4', false]))!.hash).to.equal(blocks[4].hash);
      expect(await node.call('eth_getLogs', [{ fromBlock: '0x4', toBlock: '0x6', address: emitter }])).to.have.length(3);
    });
  });

  it('answers the receipt of a transaction whose record was damaged with -32000 naming the record', async () => {
    // Into the log's data, the record's last field but the receipt's sender and blob gas.
    const record = await storedValue(dir, 'x', hexToBytes(blocks[4].tx));
    await flipInTable(dir, record, record.length - 40, 4);
    await restart();
    const error = await rpcError(rpc(node.url, 'eth_getTransactionReceipt', [blocks[4].tx]));
    expect(error.code).to.equal(-32000);
    expect(error.message).to.match(new RegExp(`^storage damage: the record of transaction ${blocks[4].tx} does not match the checksum stored with it; `));
    expect((await health(node.url)).status).to.equal(503);
    expect(await node.call('eth_getTransactionReceipt', [blocks[5].tx])).to.include({ status: '0x1', blockHash: blocks[5].hash });
  });

  it('answers state read through a trie node that no longer hashes to its key with -32000 naming the node', async () => {
    await flipInTable(dir, await storedValue(dir, 't', hexToBytes(blocks[3].stateRoot)), 40, 4);
    await restart();
    const error = await rpcError(rpc(node.url, 'eth_getBalance', [DEV_ADDRESSES[0], '0x3']));
    expect(error.code).to.equal(-32000);
    expect(error.message).to.match(new RegExp(`^storage damage: the state trie node ${blocks[3].stateRoot} does not hash to the key it was stored under `));
    expect((await health(node.url)).status).to.equal(503);
    expect(await node.call('eth_getBalance', [DEV_ADDRESSES[0], '0x4'])).to.match(/^0x[0-9a-f]+$/);
  });

  it('refuses to start on a data dir whose head block was damaged, naming the block', async () => {
    await flipInTable(dir, await storedValue(dir, 'b', hexToBytes(blocks[6].hash)), BLOOM_OFFSET);
    const refused = await startRefusal(dir, { log });
    expect(refused).to.equal(
      `the data dir ${dir}: storage damage: block ${blocks[6].hash} does not match the checksum stored with it; the data dir's tables are damaged — restore the data dir from a copy`,
    );
  });
});
