import { expect } from 'chai';
import type { Hex } from 'viem';
import type { FilterOptions, Log } from '../../../generated/types.js';
import { deployEmitter, emit, topic } from '../../helpers/emitter-node.js';
import type { EmittedLog } from '../../helpers/log-emitter.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

const [T1, T2, T3, T4, T9] = [1, 2, 3, 4, 9].map(topic);

/** The reference matcher the node must agree with: written out plainly, independent of src/filters. */
function expected(log: { address: string; topics: readonly string[] }, criteria: Pick<FilterOptions, 'address' | 'topics'>): boolean {
  const addresses = criteria.address == null ? [] : Array.isArray(criteria.address) ? criteria.address : [criteria.address];
  if (addresses.length > 0 && !addresses.some((a) => a.toLowerCase() === log.address.toLowerCase())) return false;
  const positions = criteria.topics ?? [];
  // As geth: every position needs a topic in the log, wildcards included.
  if (positions.length > log.topics.length) return false;
  for (let i = 0; i < positions.length; i++) {
    const wanted = positions[i];
    if (wanted === null || (Array.isArray(wanted) && wanted.length === 0)) continue;
    const options = (Array.isArray(wanted) ? wanted : [wanted]).map((t) => t.toLowerCase());
    if (!options.includes(log.topics[i].toLowerCase())) return false;
  }
  return true;
}

const key = (log: Log) => `${log.blockNumber}:${log.logIndex}`;

describe('eth_getLogs', function () {
  let node: TestNode;
  let a: Hex;
  let b: Hex;
  /** every emitted log with where it landed */
  const emitted: { address: string; topics: Hex[]; blockHash: string; blockNumber: string }[] = [];
  let emitBlocks: string[] = [];

  before(async () => {
    node = await startTestNode();
    a = await deployEmitter(node);
    b = await deployEmitter(node);
    const batches: [Hex, EmittedLog[]][] = [
      [a, [{ topics: [T1], data: 1n }, { topics: [T1, T2], data: 2n }]],
      [b, [{ topics: [T1], data: 3n }]],
      [a, [{ topics: [T2, T1], data: 4n }, { topics: [], data: 5n }, { topics: [T1, T3, T4], data: 6n }]],
      [b, [{ topics: [T2, T2], data: 7n }, { topics: [T3], data: 8n }]],
      [a, [{ topics: [T1, T2, T3, T4], data: 9n }]],
    ];
    for (const [address, logs] of batches) {
      const hash = await emit(node, address, logs);
      const receipt = await node.call('eth_getTransactionReceipt', [hash]);
      expect(receipt?.status).to.equal('0x1');
      for (const log of logs) emitted.push({ address, topics: log.topics, blockHash: receipt!.blockHash, blockNumber: receipt!.blockNumber });
      emitBlocks.push(receipt!.blockHash);
    }
  });
  after(async () => node.destroy());

  describe('matching (table-driven against a reference matcher)', () => {
    const table: [string, () => Pick<FilterOptions, 'address' | 'topics'>][] = [
      ['no criteria', () => ({})],
      ['one address', () => ({ address: a })],
      ['one address, checksummed case', () => ({ address: a.toUpperCase().replace('0X', '0x') })],
      ['an address list', () => ({ address: [a, b] })],
      ['an empty address list (any)', () => ({ address: [] })],
      ['address null (any)', () => ({ address: null })],
      ['an address that emitted nothing', () => ({ address: DEV_ADDRESSES[0] })],
      ['topics []', () => ({ topics: [] })],
      ['topics null', () => ({ topics: null })],
      ['topics [null] (any log with at least one topic)', () => ({ topics: [null] })],
      ['topic0 exact', () => ({ topics: [T1] })],
      ['topic0 OR-list', () => ({ topics: [[T1, T2]] })],
      ['topic0 empty OR-list (any topic there)', () => ({ topics: [[]] })],
      ['trailing wildcards still need topics there', () => ({ topics: [T1, null, null] })],
      ['wildcard then topic1', () => ({ topics: [null, T2] })],
      ['topic0 and topic2 with a wildcard between', () => ({ topics: [T1, null, T3] })],
      ['only topic3', () => ({ topics: [null, null, null, T4] })],
      ['OR-lists in two positions', () => ({ topics: [[T1, T2], [T1, T2]] })],
      ['all four positions', () => ({ topics: [T1, T2, T3, T4] })],
      ['a topic nobody emitted', () => ({ topics: [T9] })],
      ['address and topics together', () => ({ address: b, topics: [null, T2] })],
      ['address list and topic OR-list', () => ({ address: [a, b], topics: [[T2, T3]] })],
      ['uppercase topic hex', () => ({ topics: [T1.toUpperCase().replace('0X', '0x')] })],
    ];
    for (const [name, criteria] of table) {
      it(name, async () => {
        const logs = await node.call('eth_getLogs', [{ fromBlock: 'earliest', ...criteria() }]);
        const want = emitted.filter((log) => expected(log, criteria()));
        expect(logs.map((l) => [l.address, l.topics])).to.deep.equal(want.map((l) => [l.address, l.topics]));
      });
    }

    it('refuses more than four topic positions', async () => {
      await expectRpcError(node.call('eth_getLogs', [{ topics: [T1, null, null, null, null] }]), -32602, 'exceed max topics');
    });
  });

  describe('log objects', () => {
    it('carry their block, transaction, position and the block timestamp', async () => {
      const logs = await node.call('eth_getLogs', [{ fromBlock: 'earliest' }]);
      for (const log of logs) {
        const block = await node.call('eth_getBlockByHash', [log.blockHash, false]);
        expect(log.blockNumber).to.equal(block!.number);
        expect(log.blockTimestamp).to.equal(block!.timestamp);
        expect(log.removed).to.equal(false);
        const receipt = await node.call('eth_getTransactionReceipt', [log.transactionHash]);
        expect(receipt!.logs.map(key)).to.include(key(log));
        expect(log.transactionIndex).to.equal(receipt!.transactionIndex);
      }
      expect(new Set(logs.map(key)).size).to.equal(logs.length);
    });
  });

  describe('blockHash', () => {
    it('returns the logs of that block only', async () => {
      const hash = emitBlocks[2];
      const logs = await node.call('eth_getLogs', [{ blockHash: hash }]);
      expect(logs).to.have.length(3);
      expect(logs.every((l) => l.blockHash === hash)).to.equal(true);
      expect(logs.map((l) => l.logIndex)).to.deep.equal(['0x0', '0x1', '0x2']);
    });

    it('applies address and topics within the block', async () => {
      const logs = await node.call('eth_getLogs', [{ blockHash: emitBlocks[2], topics: [T1] }]);
      expect(logs.map((l) => l.topics)).to.deep.equal([[T1, T3, T4]]);
      expect(logs[0].logIndex).to.equal('0x2');
    });

    it('refuses blockHash with fromBlock or toBlock', async () => {
      const message = 'cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other';
      await expectRpcError(node.call('eth_getLogs', [{ blockHash: emitBlocks[0], fromBlock: '0x1' }]), -32602, message);
      await expectRpcError(node.call('eth_getLogs', [{ blockHash: emitBlocks[0], toBlock: 'latest' }]), -32602, message);
    });

    it('answers an unknown block hash with -32000', async () => {
      await expectRpcError(node.call('eth_getLogs', [{ blockHash: `0x${'ab'.repeat(32)}` }]), -32000, 'unknown block');
    });
  });

  describe('block ranges', () => {
    it('defaults to the latest block', async () => {
      const logs = await node.call('eth_getLogs', [{}]);
      expect(logs.map((l) => l.blockHash)).to.deep.equal([emitBlocks[4]]);
    });

    it('takes tags and numbers', async () => {
      const second = emitted.find((l) => l.blockHash === emitBlocks[1])!.blockNumber;
      const third = emitted.find((l) => l.blockHash === emitBlocks[2])!.blockNumber;
      expect(await node.call('eth_getLogs', [{ fromBlock: second, toBlock: third }])).to.have.length(4);
      expect(await node.call('eth_getLogs', [{ fromBlock: third }])).to.have.length(6);
      for (const tag of ['latest', 'pending', 'safe', 'finalized'] as const) {
        expect(await node.call('eth_getLogs', [{ fromBlock: tag, toBlock: tag }]), tag).to.have.length(1);
      }
      expect(await node.call('eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'earliest' }])).to.deep.equal([]);
    });

    it('refuses a reversed range', async () => {
      await expectRpcError(node.call('eth_getLogs', [{ fromBlock: '0x3', toBlock: '0x2' }]), -32602, 'invalid block range params');
      await expectRpcError(node.call('eth_getLogs', [{ fromBlock: '0x1000', toBlock: 'latest' }]), -32602, 'invalid block range params');
    });

    it('refuses a range past the head', async () => {
      await expectRpcError(node.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x1000' }]), -32602, 'block range extends beyond current head block');
    });
  });
});

describe('eth_getLogs limits', function () {
  let node: TestNode;
  let emitter: Hex;
  before(async () => {
    node = await startTestNode({ logsMaxBlocks: 5, logsMaxResults: 4 });
    emitter = await deployEmitter(node); // block 1
    for (let i = 0; i < 4; i++) await emit(node, emitter, [{ topics: [topic(i)], data: 0n }, { topics: [topic(i)], data: 1n }]); // blocks 2..5
  });
  after(async () => node.destroy());

  it('refuses a range longer than the block limit, naming a range that fits', async () => {
    const error = await expectRpcError(node.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x5' }]), -32005, /max block range 5/);
    expect(error.message).to.contain('fromBlock 0x0 toBlock 0x4');
    expect(error.data).to.deep.equal({ limit: 5, fromBlock: '0x0', toBlock: '0x4' });
    // Exactly the limit is fine.
    expect(await node.call('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x5', topics: [topic(0)] }])).to.have.length(2);
  });

  it('refuses more results than the limit, naming a range that fits', async () => {
    const error = await expectRpcError(node.call('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x5' }]), -32005, /more than 4 results/);
    const suggestion = error.data as { fromBlock: string; toBlock: string };
    expect(suggestion).to.deep.include({ fromBlock: '0x1', toBlock: '0x3' });
    const logs = await node.call('eth_getLogs', [{ fromBlock: suggestion.fromBlock, toBlock: suggestion.toBlock }]);
    expect(logs).to.have.length(4);
  });

  it('refuses a block asked for by hash whose matching logs pass the limit, as a range holding it is refused', async () => {
    await node.call('evm_setAutomine', [false]);
    await emit(node, emitter, [0, 1, 2].map((i) => ({ topics: [topic(9)], data: BigInt(i) })));
    await emit(node, emitter, [3, 4].map((i) => ({ topics: [topic(10)], data: BigInt(i) })));
    await node.call('evm_mine', []);
    await node.call('evm_setAutomine', [true]);
    const block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    const error = await expectRpcError(node.call('eth_getLogs', [{ blockHash: block.hash }]), -32005, `block ${block.number} alone holds more than 4 matching logs: narrow the query by address or topics`);
    expect(error.data).to.deep.equal({ limit: 4 });
    expect(await node.call('eth_getLogs', [{ blockHash: block.hash, topics: [topic(10)] }])).to.have.length(2);
  });

  it('answers a query that the criteria narrow below the limit', async () => {
    const logs = await node.call('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x5', topics: [[topic(0), topic(3)]] }]);
    expect(logs).to.have.length(4);
  });

  it('numbers logs across the transactions of one block', async () => {
    await node.call('evm_setAutomine', [false]);
    await emit(node, emitter, [{ topics: [], data: 1n }]);
    await emit(node, emitter, [{ topics: [], data: 2n }, { topics: [], data: 3n }]);
    await node.call('evm_mine', []);
    await node.call('evm_setAutomine', [true]);
    const logs = await node.call('eth_getLogs', [{}]);
    expect(logs.map((l) => [l.transactionIndex, l.logIndex, l.data.slice(-1)])).to.deep.equal([
      ['0x0', '0x0', '1'],
      ['0x1', '0x1', '2'],
      ['0x1', '0x2', '3'],
    ]);
  });
});
