import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { deployTraced, encode, sendInOneBlock, type Deployed } from '../../helpers/tracing.js';
import { expectRpcError } from '../../helpers/transactions.js';

const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe('eth_getStorageValues', () => {
  let node: TestNode;
  let c: Deployed;
  let before7: string;
  before(async () => {
    node = await startTestNode({ mining: false });
    c = await deployTraced(node);
    before7 = await node.call('eth_blockNumber', []);
    await sendInOneBlock(node, 1, [{ to: c.storage, data: encode('Storage', 'set', [7n]) }]);
  });
  after(() => node.destroy());

  it('every slot asked for, per account, in order, each as eth_getStorageAt reads it', async () => {
    const values = await node.call('eth_getStorageValues', [{ [c.storage]: [slot(1), slot(0)], [c.reverter]: [slot(0)] }]);
    expect(values).to.deep.equal({ [c.storage]: [slot(1), slot(7)], [c.reverter]: [slot(0)] });
    expect(values[c.storage][1]).to.equal(await node.call('eth_getStorageAt', [c.storage, slot(0), 'latest']));
  });

  it('reads the block it names', async () => {
    expect(await node.call('eth_getStorageValues', [{ [c.storage]: [slot(0)] }, before7])).to.deep.equal({ [c.storage]: [slot(0)] });
  });

  it('answers lowercase addresses, whatever case they were asked in', async () => {
    const values = await node.call('eth_getStorageValues', [{ [c.storage.toUpperCase().replace('0X', '0x')]: [slot(0)] }]);
    expect(values).to.deep.equal({ [c.storage]: [slot(7)] });
  });

  it('an account that does not exist: zeros', async () => {
    expect(await node.call('eth_getStorageValues', [{ '0x1111111111111111111111111111111111111111': [slot(5)] }])).to.deep.equal({ '0x1111111111111111111111111111111111111111': [slot(0)] });
  });

  it('refuses an empty request: -32602', async () => {
    await expectRpcError(node.call('eth_getStorageValues', [{}]), -32602, 'empty request');
    await expectRpcError(node.call('eth_getStorageValues', [{ [c.storage]: [] }]), -32602, 'empty request');
  });

  it('refuses more than 1024 slots: -38026', async () => {
    const keys = Array.from({ length: 1025 }, (_, i) => slot(i));
    await expectRpcError(node.call('eth_getStorageValues', [{ [c.storage]: keys }]), -38026, 'too many slots (max 1024)');
  });

  it('an unknown block: -32000 header not found', async () => {
    await expectRpcError(node.call('eth_getStorageValues', [{ [c.storage]: [slot(0)] }, '0xffff']), -32000, 'header not found');
  });
});
