import { expect } from 'chai';
import { deployStorageContract, STORAGE_RUNTIME } from '../../helpers/activity.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { RpcCallError } from '../../helpers/rpc.js';

/** System contracts the Osaka dev genesis carries (EIP-4788 beacon roots, EIP-2935 history storage). */
const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';
const HISTORY_STORAGE = '0x0000f90827f1c53a10cb7a02335b175320002935';

describe('eth_getCode', () => {
  let node: TestNode;
  let contract: string;
  let deployedIn: string;

  before(async () => {
    node = await startTestNode();
    const { address, receipt } = await deployStorageContract(node);
    contract = address;
    deployedIn = receipt.blockNumber;
  });
  after(() => node.destroy());

  it('answers the code of a system contract from the genesis block on', async () => {
    for (const address of [BEACON_ROOTS, HISTORY_STORAGE]) {
      const atGenesis = await node.call('eth_getCode', [address, 'earliest']);
      expect(atGenesis, address).to.match(/^0x[0-9a-f]{2,}$/);
      expect(await node.call('eth_getCode', [address, 'latest']), address).to.equal(atGenesis);
    }
  });

  it('answers 0x for an account without code', async () => {
    expect(await node.call('eth_getCode', [DEV_ADDRESSES[0], 'latest'])).to.equal('0x');
  });

  it('answers 0x for an address the chain never touched', async () => {
    expect(await node.call('eth_getCode', ['0x00000000000000000000000000000000deadbeef', 'latest'])).to.equal('0x');
  });

  it('answers the runtime code a deployment returned, not its creation code', async () => {
    expect(await node.call('eth_getCode', [contract, 'latest'])).to.equal(STORAGE_RUNTIME);
  });

  it('answers the code as of the block asked for: none before the deployment', async () => {
    const before = `0x${(BigInt(deployedIn) - 1n).toString(16)}`;
    expect(await node.call('eth_getCode', [contract, before])).to.equal('0x');
    expect(await node.call('eth_getCode', [contract, deployedIn])).to.equal(STORAGE_RUNTIME);
  });

  it('answers the code at a block given by its hash', async () => {
    const block = (await node.call('eth_getBlockByNumber', [deployedIn, false]))!;
    expect(await node.call('eth_getCode', [contract, block.hash])).to.equal(STORAGE_RUNTIME);
  });

  it('accepts a checksummed address', async () => {
    const checksummed = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    expect(checksummed.toLowerCase()).to.equal(contract);
    expect(await node.call('eth_getCode', [checksummed, 'latest'])).to.equal(STORAGE_RUNTIME);
  });

  it('answers -32000 header not found for a block the chain does not hold', async () => {
    const error = await node.call('eth_getCode', [contract, '0x3e8']).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcCallError).and.include({ code: -32000, message: 'header not found' });
  });
});
