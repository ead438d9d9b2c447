import { createBlockFromRLP } from '@ethereumjs/block';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { expect } from 'chai';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, signTx, txHash } from '../../helpers/transactions.js';

describe('debug_getRawBlock', () => {
  let node: TestNode;
  let hashes: string[];
  before(async () => {
    node = await startTestNode({ mining: false });
    const raws = [await signTx({ key: devKey(0), nonce: 0 }), await signTx({ key: devKey(1), nonce: 0, kind: 'legacy' })];
    for (const raw of raws) await node.call('eth_sendRawTransaction', [raw]);
    hashes = raws.map(txHash);
    await node.call('evm_mine', []);
  });
  after(() => node.destroy());

  it('the RLP block: its header, transactions, ommers and withdrawals', async () => {
    const raw = hexToBytes((await node.call('debug_getRawBlock', ['latest']))! as `0x${string}`);
    const block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    const [header, transactions, ommers, withdrawals] = RLP.decode(raw) as unknown as [Uint8Array[], unknown[], unknown[], unknown[]];
    expect(bytesToHex(keccak256(RLP.encode(header)))).to.equal(block.hash);
    expect(transactions).to.have.length(2);
    expect(ommers).to.deep.equal([]);
    expect(withdrawals).to.deep.equal([]);
    expect(BigInt(block.size)).to.equal(BigInt(raw.length));
  });

  it('decodes to the block the node serves', async () => {
    const raw = hexToBytes((await node.call('debug_getRawBlock', ['latest']))! as `0x${string}`);
    const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: Hardfork.Osaka });
    const decoded = createBlockFromRLP(raw, { common, setHardfork: false });
    const served = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    expect(bytesToHex(decoded.hash())).to.equal(served.hash);
    expect(decoded.transactions.map((tx) => bytesToHex(tx.hash()))).to.have.members(hashes).and.deep.equal(served.transactions);
  });

  it('an unknown block: null', async () => {
    expect(await node.call('debug_getRawBlock', [`0x${'ee'.repeat(32)}`])).to.equal(null);
  });
});
