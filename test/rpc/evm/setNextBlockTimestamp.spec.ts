import { expect } from 'chai';
import { blockAt, hex } from '../../helpers/dev-calls.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

describe('evm_setNextBlockTimestamp', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode({ mining: false });
  });
  afterEach(() => node.destroy());

  it('gives the next block exactly that timestamp, answered as a decimal string', async () => {
    const wanted = BigInt(Math.floor(Date.now() / 1000)) + 1000n;
    expect(await node.call('evm_setNextBlockTimestamp', [hex(wanted)])).to.equal(wanted.toString());
    await node.call('evm_mine', []);
    expect(BigInt((await blockAt(node, 'latest')).timestamp)).to.equal(wanted);
  });

  it('lets the clock run on from it: the blocks after follow that timestamp', async () => {
    const wanted = BigInt(Math.floor(Date.now() / 1000)) + 10n * 86_400n;
    await node.call('evm_setNextBlockTimestamp', [Number(wanted)]);
    await node.call('evm_mine', []);
    await node.call('evm_mine', []);
    const next = BigInt((await blockAt(node, 'latest')).timestamp);
    expect(next > wanted && next < wanted + 60n).to.equal(true);
  });

  it('applies to a block mined by a transaction too', async () => {
    await node.call('evm_setAutomine', [true]);
    const wanted = BigInt(Math.floor(Date.now() / 1000)) + 500n;
    await node.call('evm_setNextBlockTimestamp', [hex(wanted)]);
    const hash = await node.call('eth_sendTransaction', [{ from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', to: '0x000000000000000000000000000000000000dead' }]);
    const receipt = (await node.call('eth_getTransactionReceipt', [hash]))!;
    expect(BigInt((await blockAt(node, receipt.blockNumber)).timestamp)).to.equal(wanted);
  });

  it('refuses a timestamp not after the head’s with -32000, and one past the year 9999 with -32602', async () => {
    const head = BigInt((await blockAt(node, 'latest')).timestamp);
    await expectRpcError(node.call('evm_setNextBlockTimestamp', [hex(head)]), -32000, /timestamp must be greater than the parent block timestamp/);
    await expectRpcError(node.call('evm_setNextBlockTimestamp', ['0x3afff44180']), -32602, /past the latest/);
  });
});
