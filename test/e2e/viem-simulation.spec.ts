// viem's simulation and override actions against the node: simulateCalls (eth_simulateV1),
// call and readContract with a stateOverride, estimateGas with one, and createAccessList.
import { expect } from 'chai';
import { createPublicClient, defineChain, encodeFunctionData, http, parseEther, type Abi, type Address, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { contracts, deployContract } from '../helpers/contracts.js';
import { DEV_KEYS, startTestNode, type TestNode } from '../helpers/node.js';
import { CHAIN_ID, SINK } from '../helpers/transactions.js';

describe('viem: simulation, state overrides, access lists', () => {
  let node: TestNode;
  let client: PublicClient;
  let token: Address;
  let storage: Address;
  const account = privateKeyToAccount(DEV_KEYS[0]);
  const tokenAbi = () => contracts().Token.abi as unknown as Abi;
  const storageAbi = () => contracts().Storage.abi as unknown as Abi;
  const stranger = '0x1111111111111111111111111111111111111111';

  before(async () => {
    node = await startTestNode();
    const chain = defineChain({ id: CHAIN_ID, name: 'evm-node', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
    client = createPublicClient({ chain, transport: http(node.url) }) as PublicClient;
    token = await deployContract(node, 'Token', ['Test Token', 'TT', parseEther('1000')]);
    storage = await deployContract(node, 'Storage');
  });
  after(() => node.destroy());

  it('simulateCalls: a batch of calls, each result decoded, nothing mined', async () => {
    const number = await client.getBlockNumber();
    const { results, block } = await client.simulateCalls({
      account: account.address,
      calls: [
        { to: SINK, value: parseEther('1') },
        { to: token, abi: tokenAbi(), functionName: 'transfer', args: [stranger, parseEther('10')] },
        { to: token, abi: tokenAbi(), functionName: 'balanceOf', args: [stranger] },
      ],
    });
    expect(results.map((r) => r.status)).to.deep.equal(['success', 'success', 'success']);
    expect(results[1].result).to.equal(true);
    expect(results[2].result).to.equal(parseEther('10'));
    expect(results[1].logs).to.have.length(1);
    expect(block.number).to.equal(number + 1n);
    expect(await client.getBlockNumber()).to.equal(number);
    expect(await client.readContract({ address: token, abi: tokenAbi(), functionName: 'balanceOf', args: [stranger] })).to.equal(0n);
  });

  it('simulateCalls: a failing call is reported with its reason, the others still run', async () => {
    const { results } = await client.simulateCalls({
      account: stranger,
      calls: [
        { to: token, abi: tokenAbi(), functionName: 'transfer', args: [SINK, 1n] },
        { to: token, abi: tokenAbi(), functionName: 'balanceOf', args: [stranger] },
      ],
    });
    expect(results[0].status).to.equal('failure');
    expect(results[0].error?.message).to.match(/revert/i);
    expect(results[1].status).to.equal('success');
  });

  it('simulateCalls with traceAssetChanges: the ether and token balances the calls move', async () => {
    const { assetChanges } = await client.simulateCalls({
      account: account.address,
      traceAssetChanges: true,
      calls: [
        { to: SINK, value: parseEther('1') },
        { to: token, abi: tokenAbi(), functionName: 'transfer', args: [stranger, parseEther('2')] },
      ],
    });
    // Without fees named a simulated call pays no gas (geth's rule): the ether moved is the value alone.
    const ether = assetChanges.find((change) => change.token.symbol === 'ETH')!;
    expect(ether.value.diff).to.equal(-parseEther('1'));
    const tokens = assetChanges.find((change) => change.token.address.toLowerCase() === token.toLowerCase())!;
    expect(tokens.value.diff).to.equal(-parseEther('2'));
  });

  it('call with a stateOverride: a balance and a storage slot the chain does not have', async () => {
    const unfunded = await client.call({ account: stranger, to: SINK, value: 1n }).then(() => undefined, (error: Error) => error);
    expect(unfunded?.message).to.match(/insufficient funds/);
    const funded = await client.call({ account: stranger, to: SINK, value: 1n, stateOverride: [{ address: stranger, balance: parseEther('1') }] });
    expect(funded.data).to.equal(undefined);
    const slot = `0x${'00'.repeat(32)}` as const;
    const value = `0x${'2a'.padStart(64, '0')}` as const;
    const { data } = await client.call({ to: storage, data: encodeFunctionData({ abi: storageAbi(), functionName: 'get' }), stateOverride: [{ address: storage, stateDiff: [{ slot, value }] }] });
    expect(data).to.equal(value);
  });

  it('readContract with a stateOverride: code placed at an empty address', async () => {
    const answer = await client.readContract({
      address: stranger,
      abi: storageAbi(),
      functionName: 'get',
      stateOverride: [{ address: stranger, code: contracts().Storage.deployedBytecode, state: [{ slot: `0x${'00'.repeat(32)}`, value: `0x${'07'.padStart(64, '0')}` }] }],
    });
    expect(answer).to.equal(7n);
  });

  it('estimateGas with a stateOverride', async () => {
    expect(await client.estimateGas({ account: stranger, to: SINK, value: 1n, stateOverride: [{ address: stranger, balance: parseEther('1') }] })).to.equal(21000n);
  });

  it('createAccessList: the slots a call touches, and the gas it uses with them', async () => {
    const { accessList, gasUsed } = await client.createAccessList({
      account: account.address,
      to: token,
      data: encodeFunctionData({ abi: tokenAbi(), functionName: 'transfer', args: [stranger, 1n] }),
    });
    expect(accessList).to.have.length(1);
    expect(accessList[0].address.toLowerCase()).to.equal(token.toLowerCase());
    expect(accessList[0].storageKeys).to.have.length(2);
    expect(gasUsed > 21000n).to.equal(true);
  });
});
