import { expect } from 'chai';
import { deployContract } from '../../helpers/contracts.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devAddress, SINK } from '../../helpers/transactions.js';

type Hex = `0x${string}`;

// Otterscan's shapes: https://docs.otterscan.io/api-docs/ots-api (API level 8).
describe('ots_ (Otterscan)', () => {
  let node: TestNode;
  let token: Hex;
  let transfers: Hex[];
  let transferBlock: number;
  before(async () => {
    node = await startTestNode();
    token = await deployContract(node, 'Storage');
    transfers = [];
    for (let i = 0; i < 3; i++) {
      transfers.push((await node.call('eth_sendTransaction', [{ from: devAddress(0), to: SINK, value: '0x1', input: '0xdeadbeef00' }])) as Hex);
    }
    const receipt = (await node.call('eth_getTransactionReceipt', [transfers[2]]))!;
    transferBlock = Number(receipt.blockNumber);
  });
  after(() => node.destroy());

  it('ots_getApiLevel answers 8, the level Otterscan requires', async () => {
    expect(await node.call('ots_getApiLevel', [])).to.equal(8);
  });

  it('ots_hasCode tells a contract from an account', async () => {
    expect(await node.call('ots_hasCode', [token, 'latest'])).to.equal(true);
    expect(await node.call('ots_hasCode', [devAddress(0), 'latest'])).to.equal(false);
  });

  it('ots_getBlockDetails answers the block without its transactions, with their count and fees', async () => {
    const details = (await node.call('ots_getBlockDetails', [transferBlock]))!;
    const receipt = (await node.call('eth_getTransactionReceipt', [transfers[2]]))!;
    expect(details.block.transactionCount).to.equal(1);
    expect(details.block.logsBloom).to.equal(null);
    expect(details.block).to.not.have.property('transactions');
    expect(BigInt(details.totalFees)).to.equal(BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice));
  });

  it('ots_getBlockDetails answers null past the head', async () => {
    expect(await node.call('ots_getBlockDetails', [0xffff])).to.equal(null);
  });

  it('ots_getBlockTransactions answers a page with inputs cut to their selector and receipts without logs', async () => {
    const page = (await node.call('ots_getBlockTransactions', [transferBlock, 0, 25]))!;
    expect(page.fullblock.transactions).to.have.length(1);
    expect(page.fullblock.transactions[0]!.input).to.equal('0xdeadbeef');
    expect(page.receipts[0]!.logs).to.equal(null);
    expect(page.receipts[0]!.transactionHash).to.equal(transfers[2]);
  });

  it('ots_searchTransactionsBefore answers an address’s transactions newest first, the whole history on one page', async () => {
    const page = (await node.call('ots_searchTransactionsBefore', [SINK, 0, 25]))!;
    expect(page.txs.map((tx) => tx.hash)).to.deep.equal([...transfers].reverse());
    expect(page.receipts.map((r) => r.transactionHash)).to.deep.equal([...transfers].reverse());
    expect(page.firstPage).to.equal(true);
    expect(page.lastPage).to.equal(true);
  });

  it('ots_searchTransactionsAfter pages forwards and says when more are newer', async () => {
    const first = BigInt((await node.call('eth_getTransactionReceipt', [transfers[0]]))!.blockNumber);
    const page = (await node.call('ots_searchTransactionsAfter', [SINK, Number(first - 1n), 1]))!;
    expect(page.txs.map((tx) => tx.hash)).to.deep.equal([transfers[0]]);
    expect(page.firstPage).to.equal(false);
    expect(page.lastPage).to.equal(true);
  });

  it('ots_getTransactionBySenderAndNonce finds a sender’s transaction by its nonce, null past it', async () => {
    const tx = (await node.call('eth_getTransactionByHash', [transfers[1]]))!;
    expect(await node.call('ots_getTransactionBySenderAndNonce', [devAddress(0), Number(tx.nonce)])).to.equal(transfers[1]);
    expect(await node.call('ots_getTransactionBySenderAndNonce', [devAddress(0), 0xffff])).to.equal(null);
  });

  it('ots_getContractCreator names the deploying transaction and its sender, null for an account', async () => {
    const creator = (await node.call('ots_getContractCreator', [token]))!;
    expect(creator.creator).to.equal(devAddress(0).toLowerCase());
    const receipt = (await node.call('eth_getTransactionReceipt', [creator.hash]))!;
    expect(receipt.contractAddress).to.equal(token.toLowerCase());
    expect(await node.call('ots_getContractCreator', [devAddress(1)])).to.equal(null);
  });

  it('ots_traceTransaction answers the call tree flattened with depths; a transfer is one CALL at depth 0', async () => {
    const entries = await node.call('ots_traceTransaction', [transfers[0]]);
    expect(entries).to.have.length(1);
    expect(entries[0]).to.include({ type: 'CALL', depth: 0, from: devAddress(0).toLowerCase(), to: SINK, value: '0x1' });
  });

  it('ots_getInternalOperations answers none for a transfer or a deployment: the transaction itself is not one', async () => {
    expect(await node.call('ots_getInternalOperations', [transfers[0]])).to.deep.equal([]);
    const creation = (await node.call('ots_getContractCreator', [token]))!;
    expect(await node.call('ots_getInternalOperations', [creation.hash])).to.deep.equal([]);
  });

  it('ots_getTransactionError answers 0x for a transaction that succeeded', async () => {
    expect(await node.call('ots_getTransactionError', [transfers[0]])).to.equal('0x');
  });
});
