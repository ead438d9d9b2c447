import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

const YEAR_2100 = 4_102_444_800;

describe('evm_setTime', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode({ mining: false });
  });
  afterEach(() => node.destroy());

  it('sets the clock: the next blocks follow on from the time set; answers how far it moved, as anvil does', async () => {
    const moved = await node.call('evm_setTime', [`0x${YEAR_2100.toString(16)}`]);
    expect(moved).to.be.closeTo(YEAR_2100 - Date.now() / 1000, 5);
    await node.call('evm_mine', []);
    expect(Number((await node.call('eth_getBlockByNumber', ['latest', false]))!.timestamp)).to.be.within(YEAR_2100, YEAR_2100 + 5);
  });

  it('goes back in time too; a block then still comes after its parent', async () => {
    await node.call('evm_setTime', [`0x${YEAR_2100.toString(16)}`]);
    await node.call('evm_mine', []);
    expect(await node.call('evm_setTime', ['0x3e8'])).to.be.below(0);
    await node.call('evm_mine', []);
    const [parent, block] = await Promise.all(['0x1', '0x2'].map(async (n) => Number((await node.call('eth_getBlockByNumber', [n, false]))!.timestamp)));
    expect(block).to.equal(parent! + 1);
  });

  it('refuses a time past the year 9999 with -32602', async () => {
    await expectRpcError(node.call('evm_setTime', ['0x3b0559f0000']), -32602, /past the latest a block may carry/);
  });
});
