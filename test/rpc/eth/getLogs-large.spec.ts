// eth_getLogs over a chain of 1,000 blocks holding 10,000 logs: counts and positions equal a
// brute-force scan of what was emitted, and a query nothing matches reads no receipts.
import { expect } from 'chai';
import { toHex, type Hex } from 'viem';
import type { FilterOptions, Log } from '../../../generated/types.js';
import { topic } from '../../helpers/emitter-node.js';
import { emitCalldata, emitGas, LOG_EMITTER_INITCODE, type EmittedLog } from '../../helpers/log-emitter.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';

const BLOCKS = 1_000;
const LOGS_PER_TX = 40;
/** one transaction every TX_EVERY blocks: 250 transactions × 40 logs = 10,000 logs */
const TX_EVERY = 4;

// Small alphabets, so that criteria match many logs and OR-lists matter.
const SIG = [0xa0, 0xa1, 0xa2, 0xa3].map((n) => topic(n));
const FLAG = [topic(0xf0), topic(0xf1)];

interface Emitted {
  address: string;
  topics: Hex[];
  blockNumber: bigint;
  logIndex: number;
}

/** A fixed pseudo-random sequence (LCG), so every run builds the same chain. */
function lcg(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % n;
  };
}

/** The brute force: every emitted log, tested plainly against the criteria (geth's rules). */
function bruteForce(all: readonly Emitted[], criteria: FilterOptions & { from?: bigint; to?: bigint; blockNumber?: bigint }): Emitted[] {
  return all.filter((log) => {
    if (criteria.from !== undefined && log.blockNumber < criteria.from) return false;
    if (criteria.to !== undefined && log.blockNumber > criteria.to) return false;
    if (criteria.blockNumber !== undefined && log.blockNumber !== criteria.blockNumber) return false;
    const addresses = criteria.address == null ? [] : Array.isArray(criteria.address) ? criteria.address : [criteria.address];
    if (addresses.length > 0 && !addresses.includes(log.address)) return false;
    const positions = criteria.topics ?? [];
    if (positions.length > log.topics.length) return false;
    return positions.every((wanted, i) => wanted === null || (Array.isArray(wanted) ? wanted.length === 0 || wanted.includes(log.topics[i]) : wanted === log.topics[i]));
  });
}

const id = (log: { blockNumber: bigint | string; logIndex: number | string }) => `${BigInt(log.blockNumber)}:${BigInt(log.logIndex)}`;

describe('eth_getLogs on 1,000 blocks with 10,000 logs', function () {
  this.timeout(120_000);
  let node: TestNode;
  let emitters: Hex[];
  const emitted: Emitted[] = [];
  let first: bigint;

  before(async () => {
    node = await startTestNode({ mining: false });
    const deploys = [];
    for (let i = 0; i < 3; i++) deploys.push(await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], data: LOG_EMITTER_INITCODE, gas: '0x30000' }]));
    await node.call('evm_mine', []);
    emitters = [];
    for (const hash of deploys) emitters.push((await node.call('eth_getTransactionReceipt', [hash]))!.contractAddress as Hex);

    const random = lcg(42);
    first = BigInt(await node.call('eth_blockNumber', [])) + 1n;
    for (let i = 0; i < BLOCKS; i++) {
      const number = first + BigInt(i);
      if (i % TX_EVERY === 0) {
        const address = emitters[random(3)];
        const logs: EmittedLog[] = [];
        for (let j = 0; j < LOGS_PER_TX; j++) {
          const topics = [SIG[random(4)], topic(random(10)), topic(random(3)), FLAG[random(2)]].slice(0, random(5));
          logs.push({ topics, data: BigInt(j) });
          emitted.push({ address, topics, blockNumber: number, logIndex: j });
        }
        const sender = DEV_ADDRESSES[(i / TX_EVERY) % 3];
        await node.call('eth_sendTransaction', [{ from: sender, to: address, data: emitCalldata(logs), gas: toHex(emitGas(LOGS_PER_TX)) }]);
      }
      await node.call('evm_mine', []);
    }
    expect(BigInt(await node.call('eth_blockNumber', []))).to.equal(first + BigInt(BLOCKS) - 1n);
    expect(emitted).to.have.length(10_000);
  });
  after(async () => node?.destroy());

  const cases: [string, () => FilterOptions & { from?: bigint; to?: bigint }][] = [
    ['everything', () => ({ fromBlock: 'earliest' })],
    ['one address', () => ({ fromBlock: '0x0', address: emitters[0] })],
    ['two addresses', () => ({ fromBlock: '0x0', address: [emitters[1], emitters[2]] })],
    ['one event signature', () => ({ fromBlock: '0x0', topics: [SIG[0]] })],
    ['an OR-list of signatures', () => ({ fromBlock: '0x0', topics: [[SIG[1], SIG[2]]] })],
    ['a wildcard then a value', () => ({ fromBlock: '0x0', topics: [null, topic(3)] })],
    ['values around a wildcard', () => ({ fromBlock: '0x0', topics: [SIG[3], null, topic(1)] })],
    ['the fourth position only', () => ({ fromBlock: '0x0', topics: [null, null, null, FLAG[1]] })],
    ['a trailing wildcard (needs a topic there)', () => ({ fromBlock: '0x0', topics: [SIG[0], null] })],
    ['address and OR-lists together', () => ({ fromBlock: '0x0', address: emitters[2], topics: [[SIG[0], SIG[3]], [topic(0), topic(9)]] })],
    ['a sub-range', () => ({ fromBlock: toHex(first + 100n), toBlock: toHex(first + 300n), topics: [SIG[1]], from: first + 100n, to: first + 300n })],
    ['a sub-range ending at latest', () => ({ fromBlock: toHex(first + 900n), address: emitters[1], from: first + 900n })],
    ['nothing matches', () => ({ fromBlock: '0x0', topics: [topic(0x77)] })],
  ];
  for (const [name, criteria] of cases) {
    it(`${name}: the same logs as a brute-force scan`, async () => {
      const { from, to, ...options } = criteria();
      const logs = await node.call('eth_getLogs', [options]);
      const expected = bruteForce(emitted, { ...options, from, to });
      expect(logs.length).to.equal(expected.length);
      expect(logs.map(id)).to.deep.equal(expected.map(id));
      if (name === 'everything') expect(logs.map((l: Log) => l.topics)).to.deep.equal(expected.map((l) => l.topics));
    });
  }

  it('a blockHash query: the logs of that block', async () => {
    const number = first + 8n * BigInt(TX_EVERY);
    const block = await node.call('eth_getBlockByNumber', [toHex(number), false]);
    const logs = await node.call('eth_getLogs', [{ blockHash: block!.hash, topics: [[SIG[0], SIG[1]]] }]);
    expect(logs.map(id)).to.deep.equal(bruteForce(emitted, { blockNumber: number, topics: [[SIG[0], SIG[1]]] }).map(id));
  });

  it('skips blocks by their logs bloom: a query nothing matches reads (almost) no receipts', async () => {
    const blocks = node.node.services.chain.blocks;
    const original = blocks.records.bind(blocks);
    let reads = 0;
    blocks.records = async (block) => {
      reads++;
      return original(block);
    };
    try {
      const started = Date.now();
      expect(await node.call('eth_getLogs', [{ fromBlock: '0x0', address: DEV_ADDRESSES[0] }])).to.deep.equal([]);
      expect(await node.call('eth_getLogs', [{ fromBlock: '0x0', topics: [topic(0x77)] }])).to.deep.equal([]);
      expect(reads).to.be.lessThan(5);
      expect(Date.now() - started).to.be.lessThan(5_000);
      // A query that matches reads only the blocks holding logs.
      reads = 0;
      await node.call('eth_getLogs', [{ fromBlock: '0x0', address: emitters[0] }]);
      expect(reads).to.be.greaterThan(0).and.at.most(BLOCKS / TX_EVERY);
    } finally {
      blocks.records = original;
    }
  });
});
