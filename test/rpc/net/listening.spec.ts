import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('net_listening', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('answers true: the node takes requests for as long as it answers at all', async () => {
    expect(await node.call('net_listening', [])).to.equal(true);
  });
});
