// anvil's name for evm_increaseTime, answered as anvil answers: a JSON number (src/methods/aliases.ts).
import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('anvil_increaseTime', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  it("moves the clock forward and answers the total offset as a number, where evm_increaseTime answers Hardhat's string", async () => {
    expect(await node.call('anvil_increaseTime', ['0xe10'])).to.equal(3600);
    expect(await node.call('evm_increaseTime', ['0xe10'])).to.equal('7200');
    await node.call('evm_mine', []);
    expect(Number((await node.call('eth_getBlockByNumber', ['latest', false]))!.timestamp)).to.be.closeTo(Date.now() / 1000 + 7200, 5);
  });
});
