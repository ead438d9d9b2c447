// What a rewind (evm_revert) and a reset (anvil_reset) leave in the data dir in storage layout 3:
// nothing of the blocks that left the chain, neither transaction records nor entries in the log
// address index, so the blocks mined after them answer for their numbers alone.
import { bytesToBigInt } from '@ethereumjs/util';
import { expect } from 'chai';
import type { Hex } from 'viem';
import { decodeTxRecord } from '../../src/storage/layout.js';
import { sectionKeys, sectionRange, withDataDir } from '../helpers/data-dir-keys.js';
import { deployEmitter, emit, topic } from '../helpers/emitter-node.js';
import { startTestNode, type TestNode } from '../helpers/node.js';

/** The block numbers the data dir's transaction records and log address entries name. */
function indexedNumbers(dir: string): Promise<{ records: bigint[]; logAddresses: bigint[] }> {
  return withDataDir(dir, async (db) => {
    const records: bigint[] = [];
    for await (const value of db.values(sectionRange('x'))) records.push(decodeTxRecord(value).blockNumber);
    const logAddresses = (await sectionKeys(db, 'a')).map((key) => bytesToBigInt(key.subarray(20)));
    return { records: records.sort(), logAddresses: logAddresses.sort() };
  });
}

describe('a rewound chain in storage layout 3', function () {
  this.timeout(60_000);
  let node: TestNode;
  let emitter: Hex;

  beforeEach(async () => {
    node = await startTestNode();
    emitter = await deployEmitter(node);
    await emit(node, emitter, [{ topics: [topic(1)], data: 1n }]);
  });
  afterEach(() => node.destroy());

  it('evm_revert leaves no transaction record and no log address entry of the blocks it dropped', async () => {
    const snapshot = await node.call('evm_snapshot', []);
    for (let i = 0; i < 3; i++) await emit(node, emitter, [{ topics: [topic(2)], data: BigInt(i) }]);
    await node.call('evm_revert', [snapshot]);
    await node.stop();
    expect(await indexedNumbers(node.dataDir)).to.deep.equal({ records: [1n, 2n], logAddresses: [2n] });
  });

  it('the blocks mined at the dropped numbers answer their own receipts and logs', async () => {
    const snapshot = await node.call('evm_snapshot', []);
    const dropped = await emit(node, emitter, [{ topics: [topic(2)], data: 2n }]);
    await node.call('evm_revert', [snapshot]);
    const other = await deployEmitter(node);
    const mined = await emit(node, other, [{ topics: [topic(3)], data: 3n }]);
    expect(await node.call('eth_getTransactionReceipt', [dropped])).to.equal(null);
    const receipt = (await node.call('eth_getTransactionReceipt', [mined]))!;
    expect(receipt.blockNumber).to.equal('0x4');
    const byDropped = await node.call('eth_getLogs', [{ fromBlock: '0x3', toBlock: 'latest', address: emitter }]);
    expect(byDropped).to.deep.equal([]);
    const byNew = await node.call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: other }]);
    expect(byNew.map((log) => log.transactionHash)).to.deep.equal([mined]);
    const inBlock = (await node.call('eth_getBlockReceipts', ['0x4']))!;
    expect(inBlock.map((r) => r.transactionHash)).to.deep.equal([mined]);
  });

  it('anvil_reset leaves no transaction record and no log address entry of the old chain, and the layout record stays', async () => {
    await node.call('anvil_reset', []);
    await node.stop();
    expect(await indexedNumbers(node.dataDir)).to.deep.equal({ records: [], logAddresses: [] });
    const layout = await withDataDir(node.dataDir, async (db) => (await sectionKeys(db, 'm')).map((key) => Buffer.from(key).toString()));
    expect(layout).to.include('layout');
  });
});
