import { expect } from 'chai';
import type { BlockHeader } from '../../../generated/types.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { rpc } from '../../helpers/rpc.js';
import { expectRpcError } from '../../helpers/transactions.js';
import { WsRpc } from '../../helpers/ws-rpc.js';

describe('eth_unsubscribe (WebSocket)', () => {
  let node: TestNode;
  let ws: WsRpc;

  before(async () => {
    node = await startTestNode();
  });
  beforeEach(async () => {
    ws = await WsRpc.connect(node.url);
  });
  afterEach(async () => ws.close());
  after(async () => node.destroy());

  it('cancels once; notifications stop; a second cancel is "subscription not found"', async () => {
    const id = await ws.call('eth_subscribe', ['newHeads']);
    await node.call('evm_mine', []);
    await ws.waitFor(id, 1);
    expect(await ws.call('eth_unsubscribe', [id])).to.equal(true);
    const last = BigInt(await node.call('eth_blockNumber', []));
    // Deliveries go out block by block, in the order the subscriptions were made: once a later
    // subscription has the next block, the cancelled one would have had it too.
    const barrier = await ws.call('eth_subscribe', ['newHeads']);
    await node.call('evm_mine', []);
    await ws.waitFor(barrier, 1);
    expect((ws.received(id) as BlockHeader[]).every((h) => BigInt(h.number) <= last)).to.equal(true);
    await expectRpcError(ws.call('eth_unsubscribe', [id]), -32000, 'subscription not found');
  });

  it("cannot cancel another connection's subscription", async () => {
    const other = await WsRpc.connect(node.url);
    try {
      const id = await other.call('eth_subscribe', ['newHeads']);
      await expectRpcError(ws.call('eth_unsubscribe', [id]), -32000, 'subscription not found');
      expect(await other.call('eth_unsubscribe', [id])).to.equal(true);
    } finally {
      await other.close();
    }
  });

  it('answers an id never issued with -32000 "subscription not found"', async () => {
    await expectRpcError(ws.call('eth_unsubscribe', ['0xdeadbeef']), -32000, 'subscription not found');
  });

  it('answers over HTTP with -32601 "notifications not supported"', async () => {
    await expectRpcError(rpc(node.url, 'eth_unsubscribe', ['0x1']), -32601, 'notifications not supported');
  });
});
