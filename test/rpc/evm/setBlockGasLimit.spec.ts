import { expect } from 'chai';
import { blockAt } from '../../helpers/dev-calls.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError, SINK } from '../../helpers/transactions.js';

describe('evm_setBlockGasLimit', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode({ mining: false });
  });
  afterEach(() => node.destroy());

  it('gives every block from now on that gas limit, and answers true', async () => {
    expect(await node.call('evm_setBlockGasLimit', ['0x2faf080'])).to.equal(true);
    await node.call('evm_mine', []);
    await node.call('evm_mine', []);
    expect((await blockAt(node, '0x1')).gasLimit).to.equal('0x2faf080');
    expect((await blockAt(node, '0x2')).gasLimit).to.equal('0x2faf080');
  });

  it('makes eth_sendTransaction refuse more gas than the limit, as geth refuses it', async () => {
    await node.call('evm_setBlockGasLimit', ['0x7530']);
    await expectRpcError(node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK, gas: '0x9c40' }]), -32000, 'exceeds block gas limit');
  });

  it('refuses limits no block may carry (below 5,000, past 2^63 − 1) with -32602', async () => {
    await expectRpcError(node.call('evm_setBlockGasLimit', ['0x0']), -32602, /gasLimit/);
    await expectRpcError(node.call('evm_setBlockGasLimit', ['0x1387']), -32602, /gasLimit/);
    await expectRpcError(node.call('evm_setBlockGasLimit', ['0x8000000000000000']), -32602, /gasLimit/);
  });

  it('takes the largest limit and mines on with it', async () => {
    await node.call('evm_setBlockGasLimit', ['0x7fffffffffffffff']);
    await node.call('evm_mine', []);
    expect((await blockAt(node, 'latest')).gasLimit).to.equal('0x7fffffffffffffff');
    const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK }]);
    await node.call('evm_mine', []);
    expect((await node.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x1');
  });
});
