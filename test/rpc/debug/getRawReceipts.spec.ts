import { createMPT } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { deployTraced, encode, sendInOneBlock } from '../../helpers/tracing.js';

describe('debug_getRawReceipts', () => {
  let node: TestNode;
  let number: string;
  before(async () => {
    node = await startTestNode({ mining: false });
    const c = await deployTraced(node);
    const [hash] = await sendInOneBlock(node, 1, [
      { to: c.emitter, data: encode('Emitter', 'emitMany', [2n]) },
      { to: c.reverter, data: encode('Reverter', 'touch', [false]) },
    ]);
    number = (await node.call('eth_getTransactionReceipt', [hash]))!.blockNumber;
  });
  after(() => node.destroy());

  it('the consensus receipts: their trie is the block\'s receipts root', async () => {
    const raws = (await node.call('debug_getRawReceipts', [number]))!;
    expect(raws).to.have.length(2);
    const trie = await createMPT();
    for (const [i, raw] of raws.entries()) await trie.put(RLP.encode(i), hexToBytes(raw as `0x${string}`));
    expect(bytesToHex(trie.root())).to.equal((await node.call('eth_getBlockByNumber', [number, false]))!.receiptsRoot);
  });

  it('typed receipts carry their type, status, gas, bloom and logs', async () => {
    const [emitted, failed] = (await node.call('debug_getRawReceipts', [number]))!.map((raw) => hexToBytes(raw as `0x${string}`));
    const receipts = (await node.call('eth_getBlockReceipts', [number]))!;
    expect(emitted[0]).to.equal(2);
    const [status, cumulative, bloom, logs] = RLP.decode(emitted.subarray(1)) as unknown as [Uint8Array, Uint8Array, Uint8Array, unknown[]];
    expect(bytesToHex(status)).to.equal('0x01');
    expect(BigInt(bytesToHex(cumulative))).to.equal(BigInt(receipts[0].cumulativeGasUsed));
    expect(bytesToHex(bloom)).to.equal(receipts[0].logsBloom);
    expect(logs).to.have.length(2);
    expect(bytesToHex((RLP.decode(failed.subarray(1)) as Uint8Array[])[0])).to.equal('0x');
  });

  it('a block without transactions: []; an unknown block: null', async () => {
    expect(await node.call('debug_getRawReceipts', ['0x0'])).to.deep.equal([]);
    expect(await node.call('debug_getRawReceipts', ['0xffff'])).to.equal(null);
  });
});
