import { expect } from 'chai';
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { contracts, deployContract } from '../../helpers/contracts.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { CHAIN_ID, expectRpcError, SINK } from '../../helpers/transactions.js';

describe('eth_estimateGas', () => {
  let node: TestNode;
  let storage: `0x${string}`;
  let reverter: `0x${string}`;
  const abi = (name: 'Storage' | 'Reverter') => contracts()[name].abi as unknown as Abi;
  const data = (name: 'Storage' | 'Reverter', functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: abi(name), functionName, args });
  const from = DEV_ADDRESSES[0];

  before(async () => {
    node = await startTestNode();
    storage = await deployContract(node, 'Storage');
    reverter = await deployContract(node, 'Reverter');
  });
  after(() => node.destroy());

  it('a plain transfer: exactly 21,000', async () => {
    expect(await node.call('eth_estimateGas', [{ from, to: SINK, value: '0x1' }])).to.equal('0x5208');
  });

  it('is the least gas that succeeds: one less fails', async () => {
    const call = { from, to: storage, data: data('Storage', 'set', [5n]) };
    const gas = BigInt(await node.call('eth_estimateGas', [call, 'latest']));
    expect(await node.call('eth_call', [{ ...call, gas: `0x${gas.toString(16)}` }, 'latest'])).to.equal('0x');
    await expectRpcError(node.call('eth_call', [{ ...call, gas: `0x${(gas - 1n).toString(16)}` }, 'latest']), -32000, /out of gas/);
  });

  it('is enough for a call that needs more than it uses, and the transaction succeeds with it', async () => {
    const call = { from, to: reverter, data: data('Reverter', 'needsGas', [30n]) };
    const gas = await node.call('eth_estimateGas', [call, 'latest']);
    const hash = await node.call('eth_sendTransaction', [{ ...call, gas }]);
    const receipt = (await node.call('eth_getTransactionReceipt', [hash]))!;
    expect(receipt.status).to.equal('0x1');
    expect(BigInt(receipt.gasUsed) < BigInt(gas)).to.equal(true);
  });

  it('a deployment: enough to deploy with', async () => {
    const { Storage } = contracts();
    const deployData = encodeDeployData({ abi: Storage.abi as unknown as Abi, bytecode: Storage.bytecode });
    const gas = await node.call('eth_estimateGas', [{ from, data: deployData }]);
    const hash = await node.call('eth_sendTransaction', [{ from, data: deployData, gas }]);
    const receipt = (await node.call('eth_getTransactionReceipt', [hash]))!;
    expect(receipt.status).to.equal('0x1');
    expect(receipt.contractAddress).to.not.equal(null);
  });

  it('a call that reverts: code 3 with the reason and the revert data', async () => {
    const error = await expectRpcError(
      node.call('eth_estimateGas', [{ from, to: reverter, data: data('Reverter', 'touch', [false]) }]),
      3,
      'execution reverted: Reverter: touch refused',
    );
    expect(error.data).to.be.a('string').and.match(/^0x08c379a0/);
  });

  it('counts the authorizations of a set-code call (25,000 each for a fresh account)', async () => {
    const authority = privateKeyToAccount(generatePrivateKey());
    const auth = await authority.signAuthorization({ chainId: CHAIN_ID, address: storage, nonce: 0 });
    const authorizationList = [{
      chainId: `0x${CHAIN_ID.toString(16)}`,
      address: storage,
      nonce: '0x0',
      yParity: `0x${auth.yParity!.toString(16)}`,
      r: `0x${BigInt(auth.r).toString(16)}`,
      s: `0x${BigInt(auth.s).toString(16)}`,
    }];
    const call = { from, to: authority.address, data: data('Storage', 'set', [1n]) };
    const plain = BigInt(await node.call('eth_estimateGas', [call]));
    const withAuth = BigInt(await node.call('eth_estimateGas', [{ ...call, authorizationList }]));
    // Without the delegation the call hits an empty account; with it, Storage.set runs there, plus 25,000 for the tuple.
    expect(withAuth > plain + 25_000n).to.equal(true);
  });

  it('a value above the sender’s balance: -32000 "insufficient funds for transfer"', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    await expectRpcError(node.call('eth_estimateGas', [{ from: stranger, to: SINK, value: '0x1' }]), -32000, 'insufficient funds for transfer');
  });

  it('a priced call from a sender who cannot buy the gas: -32000 "gas required exceeds allowance"', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    await expectRpcError(node.call('eth_estimateGas', [{ from: stranger, to: SINK, gasPrice: '0x1' }]), -32000, 'gas required exceeds allowance (0)');
  });

  it('gas below the intrinsic cost: -32000 "intrinsic gas too low"', async () => {
    await expectRpcError(node.call('eth_estimateGas', [{ from, to: SINK, gas: '0x4e20' }]), -32000, 'intrinsic gas too low: have 20000, want 21000');
  });

  it('uses the state of the block it names', async () => {
    await expectRpcError(node.call('eth_estimateGas', [{ from, to: storage, data: data('Storage', 'set', [1n]) }, '0xffffff']), -32000, 'header not found');
    // Before Storage existed, the call is a transfer to an empty account.
    const early = BigInt(await node.call('eth_estimateGas', [{ from, to: storage, data: data('Storage', 'set', [1n]) }, 'earliest']));
    const late = BigInt(await node.call('eth_estimateGas', [{ from, to: storage, data: data('Storage', 'set', [1n]) }, 'latest']));
    expect(early < late).to.equal(true);
  });

  it('estimates with gas above the per-transaction cap (EIP-7825) capped to it, as geth does', async () => {
    const estimate = BigInt(await node.call('eth_estimateGas', [{ from, to: SINK, gas: '0x1c9c380' }]));
    expect(estimate).to.equal(21_000n);
  });

  it('estimates with state overrides: a sender funded by one, code placed by one', async () => {
    const stranger = '0x1111111111111111111111111111111111111111';
    await expectRpcError(node.call('eth_estimateGas', [{ from: stranger, to: SINK, value: '0x1' }]), -32000, /insufficient funds/);
    expect(await node.call('eth_estimateGas', [{ from: stranger, to: SINK, value: '0x1' }, 'latest', { [stranger]: { balance: '0x1' } }])).to.equal('0x5208');
    const placed = await node.call('eth_estimateGas', [{ from, to: stranger, data: data('Storage', 'set', [5n]) }, 'latest', { [stranger]: { code: contracts().Storage.deployedBytecode } }]);
    expect(BigInt(placed) > 21_000n).to.equal(true);
  });

  it('estimates in the block context of block overrides', async () => {
    // A block gas limit below the call's own need: the estimate cannot exceed it.
    await expectRpcError(node.call('eth_estimateGas', [{ from, to: storage, data: data('Storage', 'set', [5n]) }, 'latest', {}, { gasLimit: '0x6000' }]), -32000, /gas required exceeds|out of gas/);
  });

  it('estimates a call from a sender with code, as geth does', async () => {
    expect(await node.call('eth_estimateGas', [{ from: storage, to: SINK }])).to.equal('0x5208');
  });
});
