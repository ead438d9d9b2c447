import { expect } from 'chai';
import { FILTER_ID } from '../../helpers/emitter-node.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('eth_newBlockFilter', () => {
  let node: TestNode;
  const hashChanges = async (id: string) => (await node.call('eth_getFilterChanges', [id])) as string[];

  before(async () => {
    node = await startTestNode();
  });
  after(async () => node.destroy());

  it('reports the hash of every new block, in order, once', async () => {
    const id = await node.call('eth_newBlockFilter', []);
    expect(id).to.match(FILTER_ID);
    expect(await hashChanges(id)).to.deep.equal([]);
    const start = BigInt(await node.call('eth_blockNumber', []));
    for (let i = 0; i < 3; i++) await node.call('evm_mine', []);
    const expected: string[] = [];
    for (let n = start + 1n; n <= start + 3n; n++) expected.push((await node.call('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]))!.hash);
    expect(await hashChanges(id)).to.deep.equal(expected);
    expect(await hashChanges(id)).to.deep.equal([]);
  });

  it('reports nothing from before it was created', async () => {
    await node.call('evm_mine', []);
    const id = await node.call('eth_newBlockFilter', []);
    expect(await hashChanges(id)).to.deep.equal([]);
    await node.call('evm_mine', []);
    const head = await node.call('eth_getBlockByNumber', ['latest', false]);
    expect(await hashChanges(id)).to.deep.equal([head!.hash]);
  });

  it('keeps separate cursors for separate filters', async () => {
    const first = await node.call('eth_newBlockFilter', []);
    await node.call('evm_mine', []);
    const second = await node.call('eth_newBlockFilter', []);
    await node.call('evm_mine', []);
    expect(await hashChanges(first)).to.have.length(2);
    expect(await hashChanges(second)).to.have.length(1);
  });
});
