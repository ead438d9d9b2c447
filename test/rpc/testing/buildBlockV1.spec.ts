import { expect } from 'chai';
import type { BuiltPayload } from '../../../generated/types.js';
import { genesisFileWith } from '../../helpers/genesis-file.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, expectRpcError, GWEI, signTx, txHash } from '../../helpers/transactions.js';

const ZERO32 = `0x${'00'.repeat(32)}`;
const RECIPIENT = '0x00000000000000000000000000000000000fee01';

describe('testing_buildBlockV1', () => {
  let node: TestNode;
  let head: { hash: string; number: string; timestamp: string; gasLimit: string };
  const attributes = (extra: object = {}) => ({ timestamp: `0x${(BigInt(head.timestamp) + 12n).toString(16)}`, prevRandao: ZERO32, suggestedFeeRecipient: RECIPIENT, withdrawals: [], parentBeaconBlockRoot: ZERO32, ...extra });

  before(async () => {
    node = await startTestNode({ mining: false });
    await node.call('evm_mine', []);
    head = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
  });
  after(() => node.destroy());

  it('builds the given transactions, in order, into the block after the head, leaving the chain as it was', async () => {
    const raws = [await signTx({ key: devKey(1), nonce: 0, maxPriorityFeePerGas: 2n * GWEI }), await signTx({ key: devKey(2), nonce: 0, maxPriorityFeePerGas: GWEI })];
    const payload: BuiltPayload = await node.call('testing_buildBlockV1', [head.hash, attributes(), raws]);
    const p = payload.executionPayload;
    expect(p).to.include({ parentHash: head.hash, feeRecipient: RECIPIENT, blockNumber: `0x${(BigInt(head.number) + 1n).toString(16)}`, gasUsed: '0xa410' });
    expect(p.transactions).to.deep.equal(raws);
    expect(BigInt(payload.blockValue)).to.equal(21000n * 3n * GWEI);
    expect(await node.call('eth_blockNumber', [])).to.equal(head.number);
    expect(await node.call('eth_getTransactionReceipt', [txHash(raws[0])])).to.equal(null);
  });

  it('an empty array builds an empty block; null takes the pool\'s transactions', async () => {
    const raw = await signTx({ key: devKey(3), nonce: 0 });
    await node.call('eth_sendRawTransaction', [raw]);
    expect((await node.call('testing_buildBlockV1', [head.hash, attributes(), []])).executionPayload.transactions).to.deep.equal([]);
    expect((await node.call('testing_buildBlockV1', [head.hash, attributes(), null])).executionPayload.transactions).to.deep.equal([raw]);
    expect((await node.call('txpool_status', [])).pending).to.equal('0x1');
  });

  it('sets the extra data and prevRandao it is given; the same block built twice is the same block', async () => {
    const randao = `0x${'ab'.repeat(32)}`;
    const p = (await node.call('testing_buildBlockV1', [head.hash, attributes({ prevRandao: randao }), [], '0x74657374'])).executionPayload;
    expect(p).to.include({ extraData: '0x74657374', prevRandao: randao });
    expect((await node.call('testing_buildBlockV1', [head.hash, attributes({ prevRandao: randao }), [], '0x74657374'])).executionPayload.blockHash).to.equal(p.blockHash);
  });

  it('pays withdrawals into the state', async () => {
    const without = (await node.call('testing_buildBlockV1', [head.hash, attributes(), []])).executionPayload;
    const withdrawal = { index: '0x0', validatorIndex: '0x1', address: RECIPIENT, amount: '0x3b9aca00' };
    const withPaid = (await node.call('testing_buildBlockV1', [head.hash, attributes({ withdrawals: [withdrawal] }), []])).executionPayload;
    expect(withPaid.withdrawals).to.deep.equal([withdrawal]);
    expect(withPaid.stateRoot).to.not.equal(without.stateRoot);
  });

  it('moves the gas limit toward --gas-limit by at most 1/1024, as geth\'s miner does', async () => {
    expect((await node.call('testing_buildBlockV1', [head.hash, attributes(), []])).executionPayload.gasLimit).to.equal(head.gasLimit);
    const genesis = await genesisFileWith((_config, spec) => {
      spec.gasLimit = '0x3938700'; // 60,000,000, above the default --gas-limit of 30,000,000
    });
    const wider = await startTestNode({ genesis, genesisFlagsGiven: true });
    try {
      const top = (await wider.call('eth_getBlockByNumber', ['latest', false]))!;
      const payload = await wider.call('testing_buildBlockV1', [top.hash, { ...attributes(), timestamp: `0x${(BigInt(top.timestamp) + 12n).toString(16)}` }, []]);
      expect(BigInt(payload.executionPayload.gasLimit)).to.equal(60_000_000n - 60_000_000n / 1024n + 1n);
    } finally {
      await wider.destroy();
    }
  });

  it('a transaction that cannot be included fails the request: -32000', async () => {
    await expectRpcError(node.call('testing_buildBlockV1', [head.hash, attributes(), [await signTx({ key: devKey(4), nonce: 7 })]]), -32000, /^nonce too high: address 0x[0-9a-fA-F]{40}, tx: 7 state: 0$/);
  });

  it('builds only on the head: -32000 otherwise', async () => {
    const genesis = (await node.call('eth_getBlockByNumber', ['0x0', false]))!;
    await expectRpcError(node.call('testing_buildBlockV1', [genesis.hash, attributes(), []]), -32000, 'parentHash is not current head');
  });
});
