import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_capabilities', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('names the head block', async () => {
    await node.call('evm_mine', []);
    const head = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    expect((await node.call('eth_capabilities', [])).head).to.deep.equal({ number: head.number, hash: head.hash });
  });

  it('holds every kind of data from genesis on, with no deletion', async () => {
    const { head: _head, ...resources } = await node.call('eth_capabilities', []);
    expect(Object.keys(resources)).to.have.members(['state', 'tx', 'logs', 'receipts', 'blocks', 'stateproofs']);
    for (const resource of Object.values(resources)) expect(resource).to.deep.equal({ disabled: false, oldestBlock: '0x0' });
  });

  it('the oldest state it claims is readable: genesis balances', async () => {
    expect(await node.call('eth_getBalance', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x0'])).to.equal('0x21e19e0c9bab2400000');
  });
});
