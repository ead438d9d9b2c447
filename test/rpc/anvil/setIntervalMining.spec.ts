// anvil's name for evm_setIntervalMining, in seconds as anvil takes it (src/methods/aliases.ts).
import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { until } from '../../helpers/wait.js';

describe('anvil_setIntervalMining', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode({ mining: false });
  });
  afterEach(() => node.destroy());

  it('mines a block every given number of seconds, and answers null', async () => {
    const started = Date.now();
    expect(await node.call('anvil_setIntervalMining', [1])).to.equal(null);
    await until(async () => (await node.call('eth_blockNumber', [])) === '0x1', 'a block', 5_000);
    // Seconds, not milliseconds: a second passes before it.
    expect(Date.now() - started).to.be.at.least(900);
    await node.call('anvil_setIntervalMining', [0]);
  });

  it('0 turns interval mining off', async () => {
    await node.call('anvil_setIntervalMining', [0]);
    expect(await node.call('anvil_getAutomine', [])).to.equal(false);
  });
});
