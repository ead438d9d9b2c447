// The `pending` block tag with manual mining: the block the node would mine next from the pool.
import { expect } from 'chai';
import { getContractAddress } from 'viem';
import { contracts } from '../../helpers/contracts.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devAddress, devKey, GWEI, signTx, SINK, txHash } from '../../helpers/transactions.js';

describe('the pending block tag', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  const A = devAddress(0);
  const hashes: string[] = [];

  it('with an empty pool: an empty block on top of the head', async () => {
    const latest = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    const pending = (await node.call('eth_getBlockByNumber', ['pending', false]))!;
    expect(BigInt(pending.number)).to.equal(BigInt(latest.number) + 1n);
    expect(pending.parentHash).to.equal(latest.hash);
    expect(pending.transactions).to.deep.equal([]);
  });

  it('shows the pending pool transactions, in nonce order, and not the queued ones', async () => {
    for (const nonce of [0, 1]) {
      const raw = await signTx({ key: devKey(0), nonce, value: 1000n, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI });
      hashes.push(await node.call('eth_sendRawTransaction', [raw]));
    }
    await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 5 })]);
    const pending = (await node.call('eth_getBlockByNumber', ['pending', false]))!;
    expect(pending.transactions).to.deep.equal(hashes);
    expect(await node.call('eth_getBlockTransactionCountByNumber', ['pending'])).to.equal('0x2');
  });

  it('with full transaction objects', async () => {
    const pending = (await node.call('eth_getBlockByNumber', ['pending', true]))!;
    const txs = pending.transactions as { hash: string; from: string; nonce: string }[];
    expect(txs.map((t) => [t.hash, t.from, t.nonce])).to.deep.equal([
      [hashes[0], A, '0x0'],
      [hashes[1], A, '0x1'],
    ]);
  });

  it('a new pool transaction shows in the next answer', async () => {
    const raw = await signTx({ key: devKey(2), nonce: 0, value: 7n });
    hashes.push(await node.call('eth_sendRawTransaction', [raw]));
    const pending = (await node.call('eth_getBlockByNumber', ['pending', false]))!;
    expect(pending.transactions).to.have.members(hashes);
    expect(pending.transactions).to.include(txHash(raw));
  });

  it('eth_getBalance(…, "pending") reflects the pool: value and fees leave the sender, value reaches the recipient', async () => {
    const [senderLatest, senderPending, sinkLatest, sinkPending] = await Promise.all([
      node.call('eth_getBalance', [A, 'latest']),
      node.call('eth_getBalance', [A, 'pending']),
      node.call('eth_getBalance', [SINK, 'latest']),
      node.call('eth_getBalance', [SINK, 'pending']),
    ]);
    expect(BigInt(sinkPending) - BigInt(sinkLatest)).to.equal(2007n);
    const pending = (await node.call('eth_getBlockByNumber', ['pending', false]))!;
    const price = BigInt(pending.baseFeePerGas!) + GWEI;
    expect(BigInt(senderLatest) - BigInt(senderPending)).to.equal(2000n + 2n * 21_000n * price);
  });

  it('eth_getTransactionCount(…, "pending") counts the pending transactions', async () => {
    expect(await node.call('eth_getTransactionCount', [A, 'latest'])).to.equal('0x0');
    expect(await node.call('eth_getTransactionCount', [A, 'pending'])).to.equal('0x2');
  });

  it('eth_getCode and eth_call on "pending" see a contract the pool would deploy', async () => {
    const { Storage } = contracts();
    const raw = await signTx({ key: devKey(3), nonce: 0, to: null, value: 0n, gas: 500_000n, data: Storage.bytecode });
    await node.call('eth_sendRawTransaction', [raw]);
    const address = getContractAddress({ from: devAddress(3), nonce: 0n });
    expect(await node.call('eth_getCode', [address, 'latest'])).to.equal('0x');
    expect(await node.call('eth_getCode', [address, 'pending'])).to.equal(Storage.deployedBytecode);
    // value() of a fresh Storage is zero.
    expect(await node.call('eth_call', [{ to: address, data: '0x3fa4f245' }, 'pending'])).to.equal(`0x${'00'.repeat(32)}`);
  });

  it('its base fee is the next block’s, never zero', async () => {
    const pending = (await node.call('eth_getBlockByNumber', ['pending', false]))!;
    expect(BigInt(pending.baseFeePerGas!) > 0n).to.equal(true);
    const history = await node.call('eth_feeHistory', ['0x1', 'latest', []]);
    expect(pending.baseFeePerGas).to.equal(history.baseFeePerGas[1]);
  });

  it('evm_mine mines what the pending block showed, and the new pending block is empty', async () => {
    const shown = (await node.call('eth_getBlockByNumber', ['pending', false]))!;
    await node.call('evm_mine', []);
    const mined = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    expect(mined.number).to.equal(shown.number);
    expect(mined.transactions).to.deep.equal(shown.transactions);
    const next = (await node.call('eth_getBlockByNumber', ['pending', false]))!;
    expect(next.transactions).to.deep.equal([]);
    expect(next.parentHash).to.equal(mined.hash);
  });
});
