import { expect } from 'chai';
import { blockAt } from '../../helpers/dev-calls.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError, SINK } from '../../helpers/transactions.js';

const DAY = 86_400n;
const wallSeconds = () => BigInt(Math.floor(Date.now() / 1000));
const headTimestamp = async (node: TestNode) => BigInt((await blockAt(node, 'latest')).timestamp);

/**
 * Mines `blocks` blocks as fast as the node takes them: faster than one a second, so each takes its
 * parent's timestamp plus one and the head runs ahead of the wall clock (checked). Answers the head's timestamp.
 */
async function runAhead(node: TestNode, blocks = 20): Promise<bigint> {
  for (let i = 0; i < blocks; i++) await node.call('evm_mine', []);
  const head = await headTimestamp(node);
  expect(head > wallSeconds(), 'the head ran ahead of the wall clock').to.equal(true);
  return head;
}

/** evm_increaseTime(seconds) and one block: how far that moved the head. */
async function headMoveAfterIncrease(node: TestNode, seconds: bigint): Promise<bigint> {
  const before = await headTimestamp(node);
  await node.call('evm_increaseTime', [Number(seconds)]);
  await node.call('evm_mine', []);
  return (await headTimestamp(node)) - before;
}

describe('evm_increaseTime', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode({ mining: false });
  });
  afterEach(() => node.destroy());

  it('moves the next block’s timestamp forward by at least the seconds given', async () => {
    const before = BigInt(Math.floor(Date.now() / 1000));
    await node.call('evm_increaseTime', ['0x15180']);
    await node.call('evm_mine', []);
    expect(BigInt((await blockAt(node, 'latest')).timestamp) >= before + 86_400n).to.equal(true);
  });

  it('answers the clock’s total offset in seconds, as a decimal string (Hardhat’s shape)', async () => {
    expect(await node.call('evm_increaseTime', ['0xe10'])).to.equal('3600');
    expect(await node.call('evm_increaseTime', [60])).to.equal('3660');
  });

  it('answers a negative offset while the clock reads behind the wall clock (a block dated in the past), as Hardhat does', async () => {
    const genesis = BigInt((await blockAt(node, 'latest')).timestamp);
    await node.call('evm_mine', [Number(genesis + DAY)]);
    expect(genesis + DAY < wallSeconds(), 'the dev genesis is dated in the past').to.equal(true);
    expect(BigInt(await node.call('evm_increaseTime', [0])) < 0n).to.equal(true);
  });

  it('keeps moving the blocks after the next one too', async () => {
    await node.call('evm_increaseTime', [86_400 * 365]);
    await node.call('evm_mine', []);
    await node.call('evm_mine', []);
    const oneYear = BigInt(Math.floor(Date.now() / 1000)) + 86_400n * 364n;
    expect(BigInt((await blockAt(node, 'latest')).timestamp) > oneYear).to.equal(true);
  });

  it('moves the head by at least the seconds given after blocks mined faster than one a second', async () => {
    await runAhead(node);
    expect(await headMoveAfterIncrease(node, DAY) >= DAY).to.equal(true);
  });

  it('moves the head by at least the seconds given after a revert to a snapshot taken while the head ran ahead', async () => {
    await runAhead(node);
    const id = await node.call('evm_snapshot', []);
    await node.call('evm_increaseTime', [3600]);
    await runAhead(node);
    await node.call('evm_revert', [id]);
    expect(await headMoveAfterIncrease(node, DAY) >= DAY).to.equal(true);
  });

  it('moves the head by at least the seconds given when the blocks that ran ahead came after the snapshot it reverted to', async () => {
    const id = await node.call('evm_snapshot', []);
    await runAhead(node);
    await node.call('evm_revert', [id]);
    await runAhead(node, 10);
    expect(await headMoveAfterIncrease(node, DAY) >= DAY).to.equal(true);
  });

  it('moves the head by at least the seconds given after a restart on a chain that ran ahead', async () => {
    await runAhead(node);
    await node.stop();
    node = await startTestNode({ mining: false }, node.dataDir);
    expect(await headMoveAfterIncrease(node, 3600n) >= 3600n).to.equal(true);
  });

  it('refuses a clock past the year 9999 with -32602, and the chain mines on', async () => {
    await expectRpcError(node.call('evm_increaseTime', ['0x3afff44180']), -32602, /past the latest/);
    await expectRpcError(node.call('evm_increaseTime', ['0x10000000000000000']), -32602, /seconds/);
    await node.call('evm_mine', []);
    expect((await blockAt(node, 'latest')).number).to.equal('0x1');
  });

  it('moves the head a whole day after five quick transactions on an automining node', async () => {
    await node.destroy();
    node = await startTestNode();
    for (let i = 0; i < 5; i++) await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK, value: '0x1' }]);
    expect(await headMoveAfterIncrease(node, DAY) >= DAY).to.equal(true);
  });
});
