import { expect } from 'chai';
import { encodeFunctionData, getContractAddress, type Abi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { contracts, deployContract } from '../../helpers/contracts.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { CHAIN_ID, devAddress, expectRpcError, GWEI, SINK } from '../../helpers/transactions.js';

const hex = (n: bigint | number) => `0x${n.toString(16)}`;

describe('eth_sendTransaction', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  const receiptOf = async (hash: string) => (await node.call('eth_getTransactionReceipt', [hash]))!;
  const txOf = async (hash: string) => (await node.call('eth_getTransactionByHash', [hash]))!;

  it('signs with the node-held key of `from`; defaults to EIP-1559 with the next nonce and an estimated gas limit', async () => {
    const from = devAddress(5);
    const hash = await node.call('eth_sendTransaction', [{ from, to: SINK, value: '0x10' }]);
    const tx = await txOf(hash);
    expect(tx).to.include({ from, to: SINK, value: '0x10', nonce: '0x0', gas: '0x5208', type: '0x2', chainId: hex(CHAIN_ID) });
    const receipt = await receiptOf(hash);
    expect(receipt).to.include({ from, status: '0x1', type: '0x2' });
  });

  it('answers the hash of the transaction it signed', async () => {
    const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK }]);
    expect((await txOf(hash)).hash).to.equal(hash);
    expect((await receiptOf(hash)).transactionHash).to.equal(hash);
  });

  it('an account the node does not hold: -32000', async () => {
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    await expectRpcError(node.call('eth_sendTransaction', [{ from: stranger, to: SINK }]), -32000, /unknown account/);
  });

  it('uses a given gas price as a legacy (type 0) transaction', async () => {
    const hash = await node.call('eth_sendTransaction', [{ from: devAddress(6), to: SINK, gasPrice: hex(5n * GWEI) }]);
    expect(await txOf(hash)).to.include({ type: '0x0', gasPrice: hex(5n * GWEI) });
  });

  it('a gas price with an access list makes an EIP-2930 (type 1) transaction', async () => {
    const accessList = [{ address: SINK, storageKeys: [`0x${'00'.repeat(32)}`] }];
    const hash = await node.call('eth_sendTransaction', [{ from: devAddress(6), to: SINK, gasPrice: hex(5n * GWEI), accessList }]);
    const tx = await txOf(hash);
    expect(tx.type).to.equal('0x1');
    expect(tx.accessList).to.deep.equal(accessList);
    expect((await receiptOf(hash)).status).to.equal('0x1');
  });

  it('uses given fee members, gas and nonce', async () => {
    const from = devAddress(7);
    const hash = await node.call('eth_sendTransaction', [{ from, to: SINK, gas: '0x7530', maxFeePerGas: hex(30n * GWEI), maxPriorityFeePerGas: hex(3n * GWEI), nonce: '0x0' }]);
    expect(await txOf(hash)).to.include({ gas: '0x7530', maxFeePerGas: hex(30n * GWEI), maxPriorityFeePerGas: hex(3n * GWEI), nonce: '0x0' });
  });

  it('an authorization list makes a set-code (type 4) transaction, and the delegation takes effect', async () => {
    const storage = await deployContract(node, 'Storage');
    const authority = privateKeyToAccount(generatePrivateKey());
    const auth = await authority.signAuthorization({ chainId: CHAIN_ID, address: storage, nonce: 0 });
    const authorizationList = [{ chainId: hex(CHAIN_ID), address: storage, nonce: '0x0', yParity: hex(auth.yParity!), r: hex(BigInt(auth.r)), s: hex(BigInt(auth.s)) }];
    const input = encodeFunctionData({ abi: contracts().Storage.abi as unknown as Abi, functionName: 'set', args: [5n] });
    const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: authority.address, input, authorizationList }]);
    expect((await receiptOf(hash)).type).to.equal('0x4');
    expect((await receiptOf(hash)).status).to.equal('0x1');
    expect(await node.call('eth_getCode', [authority.address, 'latest'])).to.equal(`0xef0100${storage.slice(2)}`);
    expect(await node.call('eth_getStorageAt', [authority.address, '0x0', 'latest'])).to.equal(`0x${'05'.padStart(64, '0')}`);
  });

  it('deploys a contract when `to` is absent', async () => {
    const from = devAddress(8);
    const hash = await node.call('eth_sendTransaction', [{ from, data: contracts().Storage.bytecode }]);
    const receipt = await receiptOf(hash);
    expect(receipt.to).to.equal(null);
    expect(receipt.contractAddress).to.equal(getContractAddress({ from, nonce: 0n }).toLowerCase());
    expect(await node.call('eth_getCode', [receipt.contractAddress!, 'latest'])).to.equal(contracts().Storage.deployedBytecode);
  });

  it('a call that would revert fails the gas estimate: code 3 with the reason, nothing sent', async () => {
    const reverter = await deployContract(node, 'Reverter');
    const input = encodeFunctionData({ abi: contracts().Reverter.abi as unknown as Abi, functionName: 'touch', args: [false] });
    const before = await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'pending']);
    await expectRpcError(node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: reverter, input }]), 3, 'execution reverted: Reverter: touch refused');
    expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[0], 'pending'])).to.equal(before);
  });

  it('pool rules apply: a nonce already used is "nonce too low"', async () => {
    await expectRpcError(node.call('eth_sendTransaction', [{ from: devAddress(5), to: SINK, nonce: '0x0' }]), -32000, 'nonce too low: next nonce 1, tx nonce 0');
  });

  it('a chainId other than the node’s: -32000, nothing sent', async () => {
    await expectRpcError(node.call('eth_sendTransaction', [{ from: devAddress(5), to: SINK, chainId: '0x1' }]), -32000, "chainId does not match node's (have=1, want=31337)");
    expect(await node.call('eth_getTransactionCount', [devAddress(5), 'pending'])).to.equal('0x1');
  });

  it('`input` and `data` that differ: -32000', async () => {
    await expectRpcError(node.call('eth_sendTransaction', [{ from: devAddress(5), to: SINK, input: '0x01', data: '0x02' }]), -32000, /both "data" and "input" are set and not equal/);
  });

  it('concurrent sends from one account take distinct nonces', async () => {
    const from = devAddress(9);
    const hashes = await Promise.all(Array.from({ length: 6 }, () => node.call('eth_sendTransaction', [{ from, to: SINK }])));
    const nonces = await Promise.all(hashes.map(async (h) => Number(BigInt((await txOf(h)).nonce))));
    expect([...nonces].sort((a, b) => a - b)).to.deep.equal([0, 1, 2, 3, 4, 5]);
    for (const h of hashes) expect((await receiptOf(h)).status).to.equal('0x1');
  });

  it('gas above the per-transaction cap (EIP-7825): -32000 in the pool’s words', async () => {
    await expectRpcError(
      node.call('eth_sendTransaction', [{ from: devAddress(7), to: SINK, gas: '0x1c9c380' }]),
      -32000,
      'transaction gas limit too high (cap: 16777216, tx: 30000000)',
    );
  });

  it('fills in the fee cap when only the priority fee is given', async () => {
    const hash = await node.call('eth_sendTransaction', [{ from: devAddress(7), to: SINK, maxPriorityFeePerGas: hex(2n * GWEI) }]);
    const tx = (await node.call('eth_getTransactionByHash', [hash]))!;
    expect(BigInt(tx.maxPriorityFeePerGas!)).to.equal(2n * GWEI);
    expect(BigInt(tx.maxFeePerGas!) > 2n * GWEI).to.equal(true);
  });

  it('a fee cap below the priority fee: -32000 in geth’s words', async () => {
    await expectRpcError(
      node.call('eth_sendTransaction', [{ from: devAddress(7), to: SINK, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }]),
      -32000,
      'maxFeePerGas (1) < maxPriorityFeePerGas (2)',
    );
  });

  it('a fee so high that gas × fee overflows 256 bits: -32000 insufficient funds', async () => {
    await expectRpcError(
      node.call('eth_sendTransaction', [{ from: devAddress(7), to: SINK, gas: '0x5208', gasPrice: `0x${'f'.repeat(64)}` }]),
      -32000,
      /^insufficient funds for gas \* price \+ value: balance \d+, tx cost \d+/,
    );
  });

  it('a priority fee near 2^256, which takes the default fee cap past 256 bits: -32000 in geth’s words', async () => {
    await expectRpcError(
      node.call('eth_sendTransaction', [{ from: devAddress(7), to: SINK, maxPriorityFeePerGas: `0x${'f'.repeat(63)}0` }]),
      -32000,
      'max fee per gas higher than 2^256-1',
    );
  });

  it('the largest 64-bit nonce: -32000 "nonce has max value"', async () => {
    await expectRpcError(node.call('eth_sendTransaction', [{ from: devAddress(7), to: SINK, nonce: '0xffffffffffffffff' }]), -32000, 'nonce has max value');
  });
});
