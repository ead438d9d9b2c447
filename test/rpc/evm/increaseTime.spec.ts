import { expect } from 'chai';
import { blockAt } from '../../helpers/dev-calls.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

describe('evm_increaseTime', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode({ mining: false });
  });
  afterEach(() => node.destroy());

  it('moves the next block’s timestamp forward by at least the seconds given', async () => {
    const before = BigInt(Math.floor(Date.now() / 1000));
    await node.call('evm_increaseTime', ['0x15180']);
    await node.call('evm_mine', []);
    expect(BigInt((await blockAt(node, 'latest')).timestamp) >= before + 86_400n).to.equal(true);
  });

  it('answers the clock’s total offset in seconds, as a decimal string (Hardhat’s shape)', async () => {
    expect(await node.call('evm_increaseTime', ['0xe10'])).to.equal('3600');
    expect(await node.call('evm_increaseTime', [60])).to.equal('3660');
  });

  it('keeps moving the blocks after the next one too', async () => {
    await node.call('evm_increaseTime', [86_400 * 365]);
    await node.call('evm_mine', []);
    await node.call('evm_mine', []);
    const oneYear = BigInt(Math.floor(Date.now() / 1000)) + 86_400n * 364n;
    expect(BigInt((await blockAt(node, 'latest')).timestamp) > oneYear).to.equal(true);
  });

  it('refuses a clock past the year 9999 with -32602, and the chain mines on', async () => {
    await expectRpcError(node.call('evm_increaseTime', ['0x3afff44180']), -32602, /past the latest/);
    await expectRpcError(node.call('evm_increaseTime', ['0x10000000000000000']), -32602, /seconds/);
    await node.call('evm_mine', []);
    expect((await blockAt(node, 'latest')).number).to.equal('0x1');
  });
});
