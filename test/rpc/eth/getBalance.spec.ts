import { expect } from 'chai';
import { transfer } from '../../helpers/activity.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { RpcCallError } from '../../helpers/rpc.js';

const ETHER = 10n ** 18n;
const DEV_BALANCE = 10_000n * ETHER;

describe('eth_getBalance', () => {
  let node: TestNode;
  let sentIn: string;
  let fee: bigint;

  before(async () => {
    node = await startTestNode();
    const receipt = await transfer(node, DEV_ADDRESSES[1], 3n * ETHER);
    sentIn = receipt.blockNumber;
    fee = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
  });
  after(() => node.destroy());

  it('answers 10,000 ETH for every dev account at genesis', async () => {
    for (const address of DEV_ADDRESSES) {
      expect(await node.call('eth_getBalance', [address, 'earliest'])).to.equal(`0x${DEV_BALANCE.toString(16)}`);
    }
  });

  it('answers the sender less the value and the fee it paid, after a transfer', async () => {
    expect(BigInt(await node.call('eth_getBalance', [DEV_ADDRESSES[0], 'latest']))).to.equal(DEV_BALANCE - 3n * ETHER - fee);
  });

  it('answers the recipient plus the value, after a transfer', async () => {
    expect(BigInt(await node.call('eth_getBalance', [DEV_ADDRESSES[1], 'latest']))).to.equal(DEV_BALANCE + 3n * ETHER);
  });

  it('answers the balance as of a past block given by number', async () => {
    expect(BigInt(await node.call('eth_getBalance', [DEV_ADDRESSES[1], '0x0']))).to.equal(DEV_BALANCE);
    expect(BigInt(await node.call('eth_getBalance', [DEV_ADDRESSES[1], sentIn]))).to.equal(DEV_BALANCE + 3n * ETHER);
  });

  it('answers the balance at a block given by its hash', async () => {
    const genesis = (await node.call('eth_getBlockByNumber', ['earliest', false]))!;
    expect(BigInt(await node.call('eth_getBalance', [DEV_ADDRESSES[1], genesis.hash]))).to.equal(DEV_BALANCE);
  });

  it('answers 0x0 for an address the chain never touched', async () => {
    expect(await node.call('eth_getBalance', ['0x00000000000000000000000000000000deadbeef', 'latest'])).to.equal('0x0');
  });

  it('defaults to the latest block when the block is omitted', async () => {
    expect(await node.call('eth_getBalance', [DEV_ADDRESSES[1]])).to.equal(await node.call('eth_getBalance', [DEV_ADDRESSES[1], 'latest']));
  });

  it('answers -32000 header not found for a block the chain does not hold', async () => {
    const error = await node.call('eth_getBalance', [DEV_ADDRESSES[0], '0x3e8']).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcCallError).and.include({ code: -32000, message: 'header not found' });
  });
});
