import { expect } from 'chai';
import { startOtsChain, type OtsChain } from '../../helpers/ots-chain.js';
import { decodeFunctionResult, encodeFunctionData } from 'viem';
import { contracts, deployContract } from '../../helpers/contracts.js';
import { devAddress } from '../../helpers/transactions.js';

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_getContractCreator', () => {
  let chain: OtsChain;
  before(async () => {
    chain = await startOtsChain();
  });
  after(() => chain.node.destroy());

  it('ots_getContractCreator names the deploying transaction and its sender, null for an account', async () => {
    const creator = (await chain.node.call('ots_getContractCreator', [chain.contract]))!;
    expect(creator.creator).to.equal(devAddress(0).toLowerCase());
    const receipt = (await chain.node.call('eth_getTransactionReceipt', [creator.hash]))!;
    expect(receipt.contractAddress).to.equal(chain.contract.toLowerCase());
    expect(await chain.node.call('ots_getContractCreator', [devAddress(1)])).to.equal(null);
  });

  it('ots_getContractCreator names the transaction whose call created a contract, and its sender', async () => {
    const factory = await deployContract(chain.node, 'StateOps');
    const { abi } = contracts().StateOps;
    const call = { from: devAddress(1), to: factory, data: encodeFunctionData({ abi, functionName: 'spawn', args: [5n] }) };
    const child = decodeFunctionResult({ abi, functionName: 'spawn', data: (await chain.node.call('eth_call', [call, 'latest'])) as `0x${string}` }) as `0x${string}`;
    const hash = await chain.node.call('eth_sendTransaction', [call]);
    await chain.node.call('evm_mine', []);
    expect(await chain.node.call('ots_getContractCreator', [child])).to.deep.equal({ hash, creator: devAddress(1).toLowerCase() });
  });
});
