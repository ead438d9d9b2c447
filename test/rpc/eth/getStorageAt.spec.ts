import { expect } from 'chai';
import { deployStorageContract } from '../../helpers/activity.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { RpcCallError } from '../../helpers/rpc.js';

const word = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}`;
const ZERO = word(0n);

describe('eth_getStorageAt', () => {
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

  it('answers what the constructor stored, as a 32-byte word', async () => {
    expect(await node.call('eth_getStorageAt', [contract, '0x0', 'latest'])).to.equal(word(0x2an));
    expect(await node.call('eth_getStorageAt', [contract, '0x1', 'latest'])).to.equal(word(0xbeefn));
    expect(await node.call('eth_getStorageAt', [contract, '0x2', 'latest'])).to.equal(word(0x0abcn));
  });

  it('reads the same slot whether it is named as a quantity or as a full 32-byte word', async () => {
    expect(await node.call('eth_getStorageAt', [contract, word(1n), 'latest'])).to.equal(word(0xbeefn));
    expect(await node.call('eth_getStorageAt', [contract, '0x01', 'latest'])).to.equal(word(0xbeefn));
  });

  it('answers the zero word for a slot never written', async () => {
    expect(await node.call('eth_getStorageAt', [contract, '0x3', 'latest'])).to.equal(ZERO);
    expect(await node.call('eth_getStorageAt', [contract, word(2n ** 255n), 'latest'])).to.equal(ZERO);
  });

  it('answers the zero word for an account without storage', async () => {
    expect(await node.call('eth_getStorageAt', [DEV_ADDRESSES[0], '0x0', 'latest'])).to.equal(ZERO);
  });

  it('answers the storage as of the block asked for: empty before the deployment', async () => {
    const before = `0x${(BigInt(deployedIn) - 1n).toString(16)}`;
    expect(await node.call('eth_getStorageAt', [contract, '0x0', before])).to.equal(ZERO);
    expect(await node.call('eth_getStorageAt', [contract, '0x0', deployedIn])).to.equal(word(0x2an));
  });

  it('answers the storage at a block given by its hash', async () => {
    const block = (await node.call('eth_getBlockByNumber', [deployedIn, false]))!;
    expect(await node.call('eth_getStorageAt', [contract, '0x1', block.hash])).to.equal(word(0xbeefn));
  });

  it('defaults to the latest block when the block is omitted', async () => {
    expect(await node.call('eth_getStorageAt', [contract, '0x0'])).to.equal(word(0x2an));
  });

  it('answers -32000 header not found for a block the chain does not hold', async () => {
    const error = await node.call('eth_getStorageAt', [contract, '0x0', '0x3e8']).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcCallError).and.include({ code: -32000, message: 'header not found' });
  });

  it('rejects a key longer than 32 bytes with -32602', async () => {
    const error = await node.call('eth_getStorageAt', [contract, `0x${'1'.repeat(65)}`, 'latest']).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcCallError).and.include({ code: -32602 });
  });
});
