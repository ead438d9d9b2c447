import { expect } from 'chai';
import { encodeAbiParameters, keccak256, toHex, type Hex } from 'viem';
import { privateKeyToAccount, sign } from 'viem/accounts';
import type { SimulatedBlock, Transaction } from '../../../generated/types.js';
import { contracts } from '../../helpers/contracts.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { deployTraced, encode, type Deployed } from '../../helpers/tracing.js';
import { devAddress, devKey, expectRpcError } from '../../helpers/transactions.js';

const ALICE = '0xc000000000000000000000000000000000000000';
const BOB = '0xc100000000000000000000000000000000000000';
const PROBE = '0xc200000000000000000000000000000000000000';
const word = (n: bigint | number) => `0x${n.toString(16).padStart(64, '0')}`;
/** NUMBER, TIMESTAMP, COINBASE, returned as three words. */
const BLOCK_PROBE = '0x43600052426020524160405260606000f3';
/** BLOCKHASH(calldata word), returned. */
const BLOCKHASH_PROBE = '0x6000354060005260206000f3';
const quantity = (n: bigint | number) => `0x${n.toString(16)}`;

describe('eth_simulateV1', () => {
  let node: TestNode;
  let c: Deployed;
  let head: { number: string; timestamp: string; hash: string };

  before(async () => {
    node = await startTestNode();
    c = await deployTraced(node);
    head = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
  });
  after(() => node.destroy());

  const simulate = (payload: Parameters<TestNode['call']>[1] extends never ? never : object, block: string = 'latest') =>
    node.call('eth_simulateV1', [payload as never, block]) as Promise<SimulatedBlock[]>;

  it('simulates a block on the head: a transfer funded by a state override, the chain left as it was', async () => {
    const [block] = await simulate({ blockStateCalls: [{ stateOverrides: { [ALICE]: { balance: '0x3e8' } }, calls: [{ from: ALICE, to: BOB, value: '0x3e8' }] }] });
    expect(block.number).to.equal(quantity(BigInt(head.number) + 1n));
    expect(block.parentHash).to.equal(head.hash);
    expect(block.calls).to.deep.equal([{ returnData: '0x', logs: [], gasUsed: '0x5208', maxUsedGas: '0x5208', status: '0x1' }]);
    expect(block.transactions).to.have.length(1);
    expect(await node.call('eth_getBalance', [BOB, 'latest'])).to.equal('0x0');
    expect(await node.call('eth_blockNumber', [])).to.equal(head.number);
  });

  it('runs each call on the state the calls before it left, across blocks', async () => {
    const [first, second] = await simulate({
      blockStateCalls: [
        { calls: [{ from: devAddress(1), to: c.storage, input: encode('Storage', 'set', [5n]) }, { to: c.storage, input: encode('Storage', 'get') }] },
        { calls: [{ to: c.storage, input: encode('Storage', 'get') }] },
      ],
    });
    expect(first.calls[1].returnData).to.equal(word(5));
    expect(second.calls[0].returnData).to.equal(word(5));
    expect(second.parentHash).to.equal(first.hash);
  });

  it('fills a gap in block numbers with empty blocks, 12 s apart', async () => {
    const blocks = await simulate({ blockStateCalls: [{ blockOverrides: { number: quantity(BigInt(head.number) + 3n) } }] });
    expect(blocks.map((b) => b.number)).to.deep.equal([1n, 2n, 3n].map((n) => quantity(BigInt(head.number) + n)));
    expect(blocks.map((b) => BigInt(b.timestamp) - BigInt(head.timestamp))).to.deep.equal([12n, 24n, 36n]);
  });

  it('block overrides: the number, time and fee recipient the code sees', async () => {
    const overrides = { number: quantity(BigInt(head.number) + 5n), time: quantity(BigInt(head.timestamp) + 100n), feeRecipient: BOB };
    const blocks = await simulate({ blockStateCalls: [{ blockOverrides: overrides, stateOverrides: { [PROBE]: { code: BLOCK_PROBE } }, calls: [{ to: PROBE }] }] });
    const last = blocks.at(-1)!;
    expect(last.miner).to.equal(BOB);
    expect(last.calls[0].returnData).to.equal(`0x${[overrides.number, overrides.time, BOB].map((v) => word(BigInt(v)).slice(2)).join('')}`);
  });

  it('BLOCKHASH of an earlier simulated block is that block\'s hash', async () => {
    const [first, second] = await simulate({
      blockStateCalls: [{ stateOverrides: { [PROBE]: { code: BLOCKHASH_PROBE } } }, { calls: [{ to: PROBE, input: word(BigInt(head.number) + 1n) }] }],
    });
    expect(second.calls[0].returnData).to.equal(first.hash);
  });

  it('a reverting call fails alone: status 0x0, code 3 with the reason and data; the next call still runs', async () => {
    const [block] = await simulate({
      blockStateCalls: [{ calls: [{ to: c.reverter, input: encode('Reverter', 'failWithReason') }, { to: c.storage, input: encode('Storage', 'count') }] }],
    });
    expect(block.calls[0]).to.include({ status: '0x0', returnData: '0x' });
    expect(block.calls[0].error).to.include({ code: 3, message: 'execution reverted: Reverter: no luck' });
    expect(block.calls[1].status).to.equal('0x1');
  });

  it('a call that runs out of gas: status 0x0, code -32015', async () => {
    const [block] = await simulate({ blockStateCalls: [{ calls: [{ from: devAddress(1), to: c.storage, input: encode('Storage', 'set', [1n]), gas: '0x6000' }] }] });
    expect(block.calls[0].error).to.deep.equal({ message: 'out of gas', code: -32015 });
  });

  it('logs carry the simulated block\'s hash and number; traceTransfers adds ether transfers as Transfer logs from 0xeeee…', async () => {
    const [block] = await simulate({
      blockStateCalls: [{ stateOverrides: { [ALICE]: { balance: '0x10' } }, calls: [{ from: ALICE, to: BOB, value: '0x7' }, { from: devAddress(1), to: c.emitter, input: encode('Emitter', 'emitMany', [1n]) }] }],
      traceTransfers: true,
    });
    const [transfer] = block.calls[0].logs;
    expect(transfer).to.include({ address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', data: word(7), blockHash: block.hash, blockNumber: block.number, logIndex: '0x0' });
    expect(transfer.topics).to.deep.equal([keccak256(toHex('Transfer(address,address,uint256)')), word(BigInt(ALICE)), word(BigInt(BOB))]);
    expect(block.calls[1].logs.map((l) => l.address)).to.deep.equal([c.emitter]);
  });

  it('returnFullTransactions: the transactions, unsigned, from their senders', async () => {
    const [block] = await simulate({ blockStateCalls: [{ stateOverrides: { [ALICE]: { balance: '0x10' } }, calls: [{ from: ALICE, to: BOB, value: '0x1' }] }], returnFullTransactions: true });
    const [tx] = block.transactions as Transaction[];
    expect(tx).to.include({ from: ALICE, to: BOB, value: '0x1', blockHash: block.hash, type: '0x2', v: '0x0', r: '0x0', s: '0x0' });
  });

  it('a call from an account with code, as geth allows', async () => {
    const [block] = await simulate({ blockStateCalls: [{ stateOverrides: { [ALICE]: { code: contracts().Storage.deployedBytecode, balance: '0x10' } }, calls: [{ from: ALICE, to: BOB, value: '0x1' }] }] });
    expect(block.calls[0].status).to.equal('0x1');
  });

  it('moves a precompile elsewhere: its address takes code, the new address runs it', async () => {
    const moved = '0x0000000000000000000000000000000000123456';
    const account = privateKeyToAccount(devKey(3));
    const digest = keccak256(toHex('hello'));
    const signature = await sign({ hash: digest, privateKey: devKey(3) });
    const input = encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint8' }, { type: 'bytes32' }, { type: 'bytes32' }], [digest, Number(signature.v), signature.r, signature.s]) as Hex;
    const [block] = await simulate({
      blockStateCalls: [{ stateOverrides: { '0x0000000000000000000000000000000000000001': { movePrecompileToAddress: moved, code: '0x60016000526001601ff3' } }, calls: [{ to: moved, input }, { to: '0x0000000000000000000000000000000000000001', input }] }],
    });
    expect(block.calls[0].returnData).to.equal(word(BigInt(account.address)));
    expect(block.calls[1].returnData).to.equal('0x01');
  });

  it('with validation: nonces must match (-38010, -38011) and fees cover the base fee (-38012)', async () => {
    const account = { [ALICE]: { nonce: '0x5', balance: '0xde0b6b3a7640000' } };
    const call = (nonce: string) => ({ blockStateCalls: [{ stateOverrides: account, calls: [{ from: ALICE, to: BOB, nonce, maxFeePerGas: '0x3b9aca00' }] }], validation: true });
    await expectRpcError(simulate(call('0x6')), -38011, /nonce too high/);
    await expectRpcError(simulate(call('0x4')), -38010, /nonce too low/);
    expect((await simulate(call('0x5')))[0].calls[0].status).to.equal('0x1');
    await expectRpcError(simulate({ blockStateCalls: [{ stateOverrides: account, calls: [{ from: ALICE, to: BOB }] }], validation: true }), -38012, /max fee per gas less than block base fee/);
  });

  it('without funds for the value: -38014', async () => {
    await expectRpcError(simulate({ blockStateCalls: [{ calls: [{ from: ALICE, to: BOB, value: '0x1' }] }] }), -38014, /insufficient funds for gas \* price \+ value/);
  });

  it('a priority fee above the fee cap: -32602 in geth’s words', async () => {
    const call = { from: ALICE, to: BOB, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' };
    await expectRpcError(
      simulate({ blockStateCalls: [{ calls: [call] }] }),
      -32602,
      /^err: max priority fee per gas higher than max fee per gas: address 0x[0-9a-fA-F]{40}, maxPriorityFeePerGas: 2, maxFeePerGas: 1 \(supplied gas \d+\)$/,
    );
  });

  it('a fee whose product with the gas passes 256 bits: -38014, the required balance exceeds 256 bits (geth)', async () => {
    const huge = `0x${'f'.repeat(64)}`;
    for (const fees of [{ maxFeePerGas: huge, maxPriorityFeePerGas: '0x1' }, { gasPrice: huge }]) {
      await expectRpcError(simulate({ blockStateCalls: [{ calls: [{ from: ALICE, to: BOB, gas: '0x5208', ...fees }] }] }), -38014, /required balance exceeds 256 bits \(supplied gas 21000\)$/);
    }
  });

  it('more gas than the block has left: -38015', async () => {
    await expectRpcError(simulate({ blockStateCalls: [{ blockOverrides: { gasLimit: '0x5208' }, calls: [{ to: BOB, gas: '0x5209' }] }] }), -38015, /block gas limit reached/);
  });

  it('refuses blocks out of order (-38020), times out of order (-38021), too many blocks (-38026) and an empty request (-32602)', async () => {
    await expectRpcError(simulate({ blockStateCalls: [{ blockOverrides: { number: head.number } }] }), -38020, /block numbers must be in order/);
    await expectRpcError(simulate({ blockStateCalls: [{ blockOverrides: { time: head.timestamp } }] }), -38021, /block timestamps must be in order/);
    await expectRpcError(simulate({ blockStateCalls: [{ blockOverrides: { number: quantity(BigInt(head.number) + 257n) } }] }), -38026, 'too many blocks');
    await expectRpcError(simulate({ blockStateCalls: [] }), -32602, 'empty input');
  });

  it('builds on the block it is given', async () => {
    const [block] = await simulate({ blockStateCalls: [{}] }, '0x1');
    expect(block.number).to.equal('0x2');
    expect(block.parentHash).to.equal((await node.call('eth_getBlockByNumber', ['0x1', false]))!.hash);
  });
});
