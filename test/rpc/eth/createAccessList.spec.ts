import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { deployTraced, encode, type Deployed } from '../../helpers/tracing.js';
import { contracts } from '../../helpers/contracts.js';
import { devAddress, devKey, expectRpcError, signTx, SINK, txHash } from '../../helpers/transactions.js';

const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe('eth_createAccessList', () => {
  let node: TestNode;
  let c: Deployed;
  before(async () => {
    node = await startTestNode();
    c = await deployTraced(node);
  });
  after(() => node.destroy());

  it('a transfer needs none', async () => {
    expect(await node.call('eth_createAccessList', [{ from: devAddress(0), to: SINK, value: '0x1' }])).to.deep.equal({ accessList: [], gasUsed: '0x5208' });
  });

  it('lists the recipient\'s slots, not the recipient, and the gas used with the list is what a transaction with it uses', async () => {
    const call = { from: devAddress(1), to: c.storage, data: encode('Storage', 'set', [3n]) };
    const { accessList, gasUsed, error } = await node.call('eth_createAccessList', [call, 'latest']);
    expect(error).to.equal(undefined);
    expect(accessList).to.have.length(1);
    expect(accessList[0].address).to.equal(c.storage);
    expect(accessList[0].storageKeys).to.include.members([slot(0), slot(1)]);
    const raw = await signTx({ key: devKey(1), nonce: 0, kind: 'eip2930', to: c.storage, value: 0n, data: call.data, gas: 200_000n, accessList: accessList as never });
    await node.call('eth_sendRawTransaction', [raw]);
    expect((await node.call('eth_getTransactionReceipt', [txHash(raw)]))!.gasUsed).to.equal(gasUsed);
  });

  it('lists the contracts a call reaches through another, with their slots', async () => {
    const { accessList } = await node.call('eth_createAccessList', [{ from: devAddress(2), to: c.relay, data: encode('Relay', 'forward', [c.storage, encode('Storage', 'get')]) }]);
    expect(accessList.map((entry) => entry.address)).to.deep.equal([c.storage]);
    expect(accessList[0].storageKeys).to.deep.equal([slot(0)]);
  });

  it('a call that fails still gets its list, with the failure', async () => {
    const result = await node.call('eth_createAccessList', [{ from: devAddress(2), to: c.relay, data: encode('Relay', 'forward', [c.reverter, encode('Reverter', 'failWithReason')]) }]);
    expect(result.error).to.equal('execution reverted');
    expect(result.accessList.map((entry) => entry.address)).to.deep.equal([c.reverter]);
  });

  it('applies state overrides: code the chain does not hold', async () => {
    const probe = '0x00000000000000000000000000000000000c0de1';
    const { accessList } = await node.call('eth_createAccessList', [{ from: devAddress(2), to: c.relay, data: encode('Relay', 'forward', [probe, encode('Storage', 'get')]) }, 'latest', { [probe]: { code: contracts().Storage.deployedBytecode } }]);
    expect(accessList).to.deep.equal([{ address: probe, storageKeys: [slot(0)] }]);
  });

  it('prices the transaction with the node\'s suggestions: a sender that cannot pay is refused, -32000', async () => {
    await expectRpcError(node.call('eth_createAccessList', [{ from: '0x1111111111111111111111111111111111111111', to: SINK }]), -32000, /^failed to apply transaction: insufficient funds/);
  });

  it('refuses gasPrice with the EIP-1559 fee fields: -32000', async () => {
    await expectRpcError(node.call('eth_createAccessList', [{ to: SINK, gasPrice: '0x1', maxFeePerGas: '0x1' }]), -32000, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  });
});
