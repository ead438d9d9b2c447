// A data dir written in an older storage layout opens, is migrated, and serves exactly what it
// served: layout 1 (receipts as one list per block, transaction index entries naming only block
// and position), layout 2 (blocks and transaction records without their checksums).
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToHex, intToBytes, utf8ToBytes } from '@ethereumjs/util';
import { expect } from 'chai';
import type { Hex } from 'viem';
import { isSealed } from '../../src/storage/checksum.js';
import { decodeTxRecord, numberKey, type StoredReceipt } from '../../src/storage/layout.js';
import { sectionKey as prefixed, sectionRange, withDataDir } from '../helpers/data-dir-keys.js';
import { deployEmitter, emit, topic } from '../helpers/emitter-node.js';
import { DEV_ADDRESSES, startRefusal, startTestNode, type TestNode } from '../helpers/node.js';

const empty = new Uint8Array();
const optional = (n: bigint | undefined) => (n === undefined ? empty : bigIntToUnpaddedBytes(n + 1n));

/** A receipt as layout 1 encoded it inside a block's list. */
function legacyReceipt(r: StoredReceipt): unknown[] {
  return [
    r.status === undefined ? empty : bigIntToUnpaddedBytes(BigInt(r.status + 1)),
    r.stateRoot ?? empty,
    bigIntToUnpaddedBytes(r.cumulativeGasUsed),
    bigIntToUnpaddedBytes(r.gasUsed),
    r.logs,
    r.sender,
    r.contractAddress ?? empty,
    optional(r.blobGasUsed),
  ];
}

/** Layout 3's checksum, 4 bytes after the record. */
const withoutChecksum = (value: Uint8Array): Uint8Array => value.subarray(0, -4);

/**
 * Rewrites the values of key spaces `sections` as layout 2 stored them, without their checksums
 * (those `which` picks, by their order in the key space: picking only some leaves the dir as a
 * migration cut short left it), and records `layout`.
 */
async function stripChecksums(dir: string, sections: string[], layout: number | undefined, which: (index: number) => boolean = () => true): Promise<void> {
  await withDataDir(dir, async (db) => {
    const ops: ({ type: 'put'; key: Uint8Array; value: Uint8Array } | { type: 'del'; key: Uint8Array })[] = [];
    for (const section of sections) {
      let index = 0;
      for await (const [key, value] of db.iterator(sectionRange(section))) if (which(index++)) ops.push({ type: 'put', key, value: withoutChecksum(value) });
    }
    const layoutKey = prefixed('m', utf8ToBytes('layout'));
    ops.push(layout === undefined ? { type: 'del', key: layoutKey } : { type: 'put', key: layoutKey, value: intToBytes(layout) });
    await db.batch(ops);
  });
}

/**
 * Rewrites the data dir's blocks (those `which` picks, by number) as layout 1 wrote them: each
 * block's receipts as one list, transaction entries as [block hash, index], no log address index
 * entries, no layout record, and every block without its checksum. Picking only some blocks leaves
 * the dir as a migration cut short left it.
 */
async function rewriteAsLayout1(dir: string, which: (number: bigint) => boolean = () => true): Promise<void> {
  await stripChecksums(dir, ['b'], undefined);
  await withDataDir(dir, async (db) => {
    const byBlock = new Map<string, { hash: Uint8Array; number: bigint; entries: [Uint8Array, number, StoredReceipt][] }>();
    for await (const [key, value] of db.iterator(sectionRange('x'))) {
      const record = decodeTxRecord(value);
      if (!which(record.blockNumber)) continue;
      const id = record.blockHash.join();
      const block = byBlock.get(id) ?? { hash: record.blockHash, number: record.blockNumber, entries: [] };
      block.entries.push([key.subarray(3), record.index, record.receipt]);
      byBlock.set(id, block);
    }
    const ops: ({ type: 'put'; key: Uint8Array; value: Uint8Array } | { type: 'del'; key: Uint8Array })[] = [];
    for (const { hash, number, entries } of byBlock.values()) {
      entries.sort((a, b) => a[1] - b[1]);
      ops.push({ type: 'put', key: prefixed('r', hash), value: RLP.encode(entries.map(([, , receipt]) => legacyReceipt(receipt)) as never) });
      for (const [txHash, index] of entries) ops.push({ type: 'put', key: prefixed('x', txHash), value: RLP.encode([hash, intToBytes(index)]) });
      for await (const key of db.keys(sectionRange('a'))) if (BigInt(`0x${Buffer.from(key.subarray(-8)).toString('hex')}`) === number) ops.push({ type: 'del', key });
    }
    await db.batch(ops);
  });
}

/** The layout record, how many layout 1 receipt lists are left, and how many blocks and records lack their checksum. */
function storedLayout(dir: string): Promise<{ layout?: number[]; legacyLists: number; unchecked: number }> {
  return withDataDir(dir, async (db) => {
    const layout = await db.get(prefixed('m', utf8ToBytes('layout')));
    let legacyLists = 0;
    for await (const _ of db.keys(sectionRange('r'))) legacyLists++;
    let unchecked = 0;
    for (const section of ['b', 'x']) for await (const value of db.values(sectionRange(section))) if (!isSealed(value)) unchecked++;
    return { layout: layout === undefined ? undefined : [...layout], legacyLists, unchecked };
  });
}

describe('storage layout migration', function () {
  this.timeout(120_000);
  let node: TestNode;
  let dir: string;
  let emitter: Hex;
  const hashes: Hex[] = [];
  /** Everything a client can read of the receipts and logs, as the node answered before the rewrite. */
  let answers: unknown;

  const readAll = async (n: TestNode) => {
    const head = BigInt(await n.call('eth_blockNumber', []));
    const blockReceipts = [];
    for (let b = 0n; b <= head; b++) blockReceipts.push(await n.call('eth_getBlockReceipts', [`0x${b.toString(16)}`]));
    return {
      receipts: await Promise.all(hashes.map((hash) => n.call('eth_getTransactionReceipt', [hash]))),
      transactions: await Promise.all(hashes.map((hash) => n.call('eth_getTransactionByHash', [hash]))),
      blockReceipts,
      byAddress: await n.call('eth_getLogs', [{ fromBlock: '0x0', address: emitter }]),
      byTopic: await n.call('eth_getLogs', [{ fromBlock: '0x0', topics: [topic(2)] }]),
      nothing: await n.call('eth_getLogs', [{ fromBlock: '0x0', address: DEV_ADDRESSES[1] }]),
    };
  };

  beforeEach(async () => {
    node = await startTestNode();
    dir = node.dataDir;
    hashes.length = 0;
    emitter = await deployEmitter(node);
    for (let i = 0; i < 6; i++) {
      hashes.push(await emit(node, emitter, [{ topics: [topic(i % 3)], data: BigInt(i) }, { topics: [topic(7), topic(i)], data: 0n }]));
      hashes.push((await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: DEV_ADDRESSES[2], value: '0x1' }])) as Hex);
    }
    answers = await readAll(node);
    await node.stop();
  });

  afterEach(() => node.destroy());

  it('migrates a layout 1 data dir as it opens; every receipt, transaction and log reads as before', async () => {
    await rewriteAsLayout1(dir);
    expect((await storedLayout(dir)).legacyLists).to.be.greaterThan(10);
    node = await startTestNode({}, dir);
    expect(await readAll(node)).to.deep.equal(answers);
    await node.stop();
    expect(await storedLayout(dir)).to.deep.equal({ layout: [3], legacyLists: 0, unchecked: 0 });
  });

  it('finishes a migration that was cut short, whichever blocks it had done', async () => {
    await rewriteAsLayout1(dir, (number) => number % 2n === 0n);
    node = await startTestNode({}, dir);
    expect(await readAll(node)).to.deep.equal(answers);
  });

  it('keeps what layout 1 data dirs hold besides receipts: state edits on the head, an impersonated sender’s pooled transaction (journal format 2)', async () => {
    node = await startTestNode({}, dir);
    const impersonated = '0x00000000000000000000000000000000000b0b0b';
    await node.call('anvil_setBalance', [impersonated, '0xde0b6b3a7640000']);
    await node.call('anvil_impersonateAccount', [impersonated]);
    await node.call('evm_setAutomine', [false]);
    const pooled = await node.call('eth_sendTransaction', [{ from: impersonated, to: DEV_ADDRESSES[2], value: '0x2a' }]);
    await node.stop();
    await rewriteAsLayout1(dir);
    node = await startTestNode({ mining: false }, dir);
    expect(await node.call('eth_getBalance', [impersonated, 'latest'])).to.equal('0xde0b6b3a7640000');
    expect((await node.call('eth_getTransactionByHash', [pooled]))?.from).to.equal(impersonated);
    expect(await readAll(node)).to.deep.equal(answers);
    await node.call('evm_mine', []);
    expect((await node.call('eth_getTransactionReceipt', [pooled]))?.status).to.equal('0x1');
  });

  it('migrates a layout 2 data dir as it opens: every block and record gets its checksum and reads as before', async () => {
    await stripChecksums(dir, ['b', 'x'], 2);
    expect((await storedLayout(dir)).unchecked).to.be.greaterThan(20);
    node = await startTestNode({}, dir);
    expect(await readAll(node)).to.deep.equal(answers);
    await node.stop();
    expect(await storedLayout(dir)).to.deep.equal({ layout: [3], legacyLists: 0, unchecked: 0 });
  });

  it('finishes a migration to layout 3 that was cut short, whichever blocks and records it had done', async () => {
    await stripChecksums(dir, ['b', 'x'], 2, (index) => index % 2 === 0);
    node = await startTestNode({}, dir);
    expect(await readAll(node)).to.deep.equal(answers);
    await node.stop();
    expect((await storedLayout(dir)).unchecked).to.equal(0);
  });

  it('refuses a layout 2 data dir holding a block whose header does not hash to its key, rather than checksum the damage', async () => {
    await stripChecksums(dir, ['b', 'x'], 2);
    const hash = await withDataDir(dir, async (db) => {
      const stored = (await db.get(prefixed('n', numberKey(3n))))!;
      const key = prefixed('b', stored);
      const value = Uint8Array.from((await db.get(key))!);
      value[220] ^= 0xff; // inside its header's logs bloom
      await db.put(key, value);
      return bytesToHex(stored);
    });
    const refusal = await startRefusal(dir);
    expect(refusal).to.match(new RegExp(`^the data dir \\S+: its chain is damaged: the block stored under ${hash} has a header that hashes to 0x[0-9a-f]{64}$`));
    expect((await storedLayout(dir)).layout).to.deep.equal([2]);
  });

  it('refuses a data dir written in a newer layout, saying so', async () => {
    await withDataDir(dir, (db) => db.put(prefixed('m', utf8ToBytes('layout')), intToBytes(4)));
    const refusal = await startRefusal(dir);
    expect(refusal).to.match(/written in storage layout 4, newer than this node's \(3\)/);
  });
});
