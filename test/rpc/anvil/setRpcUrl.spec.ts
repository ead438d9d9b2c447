// anvil_setRpcUrl: on a node that forks nothing, a URL nothing serves is refused naming the remote (the
// fork cases: test/fork/).
import { expect } from 'chai';
import { expectRpcError } from '../../helpers/transactions.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('anvil_setRpcUrl', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('answers -32000 naming the remote when nothing serves the URL, and the chain stays', async () => {
    await expectRpcError(node.call('anvil_setRpcUrl', ['http://127.0.0.1:1']), -32000, /fork's remote http:\/\/127\.0\.0\.1:1 .*cannot connect/);
    expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
  });

  it('refuses what is no http(s) URL with -32602', async () => {
    await expectRpcError(node.call('anvil_setRpcUrl', ['ftp://example']), -32602, /http/);
  });
});
