import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, expectRpcError, signTx, txHash } from '../../helpers/transactions.js';

describe('evm_mine', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  it('mines one block, empty when the pool is, and answers 0x0', async () => {
    expect(await node.call('evm_mine', [])).to.equal('0x0');
    const block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    expect(block.number).to.equal('0x1');
    expect(block.transactions).to.deep.equal([]);
  });

  it('includes the pool’s pending transactions', async () => {
    const raw = await signTx({ key: devKey(0), nonce: 0 });
    await node.call('eth_sendRawTransaction', [raw]);
    await node.call('evm_mine', []);
    expect((await node.call('eth_getBlockByNumber', ['latest', false]))!.transactions).to.deep.equal([txHash(raw)]);
  });

  it('takes the block timestamp as a parameter', async () => {
    const parent = BigInt((await node.call('eth_getBlockByNumber', ['latest', false]))!.timestamp);
    const wanted = parent + 1000n;
    await node.call('evm_mine', [`0x${wanted.toString(16)}`]);
    expect(BigInt((await node.call('eth_getBlockByNumber', ['latest', false]))!.timestamp)).to.equal(wanted);
  });

  it('timestamps strictly increase, even for blocks mined within one second', async () => {
    const stamps: bigint[] = [];
    for (let i = 0; i < 5; i++) {
      await node.call('evm_mine', []);
      stamps.push(BigInt((await node.call('eth_getBlockByNumber', ['latest', false]))!.timestamp));
    }
    for (let i = 1; i < stamps.length; i++) expect(stamps[i] > stamps[i - 1]).to.equal(true);
  });

  it('each block links to the previous one', async () => {
    const head = BigInt(await node.call('eth_blockNumber', []));
    for (let n = 1n; n <= head; n++) {
      const [block, parent] = await Promise.all([
        node.call('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]),
        node.call('eth_getBlockByNumber', [`0x${(n - 1n).toString(16)}`, false]),
      ]);
      expect(block!.parentHash).to.equal(parent!.hash);
    }
  });

  it('refuses a timestamp past the year 9999 with -32602, and the chain keeps mining', async () => {
    const head = BigInt(await node.call('eth_blockNumber', []));
    for (const timestamp of ['0x10000000000000000', '0xffffffffffffffff', '0x3afff44180']) {
      await expectRpcError(node.call('evm_mine', [timestamp]), -32602, /timestamp/);
    }
    await expectRpcError(node.call('evm_mine', [1e308]), -32602, /timestamp/);
    await node.call('evm_mine', []);
    expect(BigInt(await node.call('eth_blockNumber', []))).to.equal(head + 1n);
  });

  it('takes the last second of the year 9999, then refuses a block after it with -32000 naming the ceiling, and goes on answering', async () => {
    await node.call('evm_mine', [253402300799]);
    const head = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    expect(head.timestamp).to.equal('0x3afff4417f');
    await expectRpcError(
      node.call('evm_mine', []),
      -32000,
      /^the next block would carry timestamp 253402300800, past the latest a block may carry \(253402300799, the last second of the year 9999\): the head carries 253402300799$/,
    );
    expect((await node.call('eth_getBlockByNumber', ['latest', false]))!.hash).to.equal(head.hash);
    expect(await node.call('eth_getBalance', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'latest'])).to.match(/^0x[0-9a-f]+$/);
  });
});
