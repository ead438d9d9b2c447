import { expect } from 'chai';
import { encodeFunctionData, getContractAddress, keccak256, toHex, type Abi } from 'viem';
import { contracts, deployContract } from '../../helpers/contracts.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { devAddress, devKey, GWEI, signTx, SINK, txHash } from '../../helpers/transactions.js';

const hex = (n: bigint | number) => `0x${n.toString(16)}`;
const ZERO_BLOOM = `0x${'00'.repeat(256)}`;

describe('eth_getTransactionReceipt', () => {
  // Manual mining, so several transactions can share a block.
  let node: TestNode;
  let emitter: `0x${string}`;
  const emitterCall = (functionName: string, args: unknown[]) =>
    encodeFunctionData({ abi: contracts().Emitter.abi as unknown as Abi, functionName, args });

  before(async () => {
    node = await startTestNode({ mining: false });
    emitter = await deployContract(node, 'Emitter', [], devKey(9));
  });
  after(() => node.destroy());

  const receipt = async (hash: string) => (await node.call('eth_getTransactionReceipt', [hash]))!;

  it('an unknown hash: null', async () => {
    expect(await node.call('eth_getTransactionReceipt', [`0x${'ab'.repeat(32)}`])).to.equal(null);
  });

  it('a transaction still in the pool: null', async () => {
    const raw = await signTx({ key: devKey(0), nonce: 0 });
    await node.call('eth_sendRawTransaction', [raw]);
    expect(await node.call('eth_getTransactionReceipt', [txHash(raw)])).to.equal(null);
    await node.call('evm_mine', []);
  });

  it('a transfer: every member, with the effective gas price paid', async () => {
    const raw = await signTx({ key: devKey(1), nonce: 0, value: 3n, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    await node.call('eth_sendRawTransaction', [raw]);
    await node.call('evm_mine', []);
    const block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    expect(await receipt(txHash(raw))).to.deep.equal({
      blockHash: block.hash,
      blockNumber: block.number,
      contractAddress: null,
      cumulativeGasUsed: '0x5208',
      effectiveGasPrice: hex(BigInt(block.baseFeePerGas!) + 2n * GWEI),
      from: devAddress(1),
      gasUsed: '0x5208',
      logs: [],
      logsBloom: ZERO_BLOOM,
      status: '0x1',
      to: SINK,
      transactionHash: txHash(raw),
      transactionIndex: '0x0',
      type: '0x2',
    });
  });

  it('a legacy transaction pays its gas price', async () => {
    const raw = await signTx({ key: devKey(1), nonce: 1, kind: 'eip155', gasPrice: 7n * GWEI });
    await node.call('eth_sendRawTransaction', [raw]);
    await node.call('evm_mine', []);
    expect(await receipt(txHash(raw))).to.include({ type: '0x0', effectiveGasPrice: hex(7n * GWEI) });
  });

  it('a deployment names the contract address and has a null `to`', async () => {
    const raw = await signTx({ key: devKey(2), nonce: 0, to: null, value: 0n, gas: 500_000n, data: contracts().Storage.bytecode });
    await node.call('eth_sendRawTransaction', [raw]);
    await node.call('evm_mine', []);
    const r = await receipt(txHash(raw));
    expect(r.to).to.equal(null);
    expect(r.contractAddress).to.equal(getContractAddress({ from: devAddress(2), nonce: 0n }).toLowerCase());
  });

  it('a reverted transaction: status 0x0, no logs, gas used', async () => {
    const reverter = await deployContract(node, 'Reverter', [], devKey(9));
    const data = encodeFunctionData({ abi: contracts().Reverter.abi as unknown as Abi, functionName: 'touch', args: [false] });
    const raw = await signTx({ key: devKey(3), nonce: 0, to: reverter, value: 0n, gas: 100_000n, data });
    await node.call('eth_sendRawTransaction', [raw]);
    await node.call('evm_mine', []);
    const r = await receipt(txHash(raw));
    expect(r.status).to.equal('0x0');
    expect(r.logs).to.deep.equal([]);
    expect(BigInt(r.gasUsed) > 21_000n && BigInt(r.gasUsed) <= 100_000n).to.equal(true);
  });

  describe('several transactions in one block', () => {
    const raws: `0x${string}`[] = [];
    before(async () => {
      raws.push(await signTx({ key: devKey(4), nonce: 0, to: emitter, value: 0n, gas: 200_000n, data: emitterCall('emitMany', [2n]) }));
      raws.push(await signTx({ key: devKey(4), nonce: 1 }));
      raws.push(await signTx({ key: devKey(4), nonce: 2, to: emitter, value: 0n, gas: 200_000n, data: emitterCall('ping', [5n, 'hi']) }));
      for (const raw of raws) await node.call('eth_sendRawTransaction', [raw]);
      await node.call('evm_mine', []);
    });

    it('cumulativeGasUsed adds up gasUsed, in block order', async () => {
      const receipts = await Promise.all(raws.map((r) => receipt(txHash(r))));
      let total = 0n;
      receipts.forEach((r, i) => {
        expect(r.transactionIndex).to.equal(hex(i));
        total += BigInt(r.gasUsed);
        expect(BigInt(r.cumulativeGasUsed)).to.equal(total);
      });
      const block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
      expect(BigInt(block.gasUsed)).to.equal(total);
    });

    it('logs are full entries, with log indexes running across the block', async () => {
      const [first, second, third] = await Promise.all(raws.map((r) => receipt(txHash(r))));
      expect(first.logs.map((l) => l.logIndex)).to.deep.equal(['0x0', '0x1']);
      expect(second.logs).to.deep.equal([]);
      expect(third.logs.map((l) => l.logIndex)).to.deep.equal(['0x2']);
      const log = third.logs[0];
      expect(log).to.deep.include({
        address: emitter,
        blockHash: third.blockHash,
        blockNumber: third.blockNumber,
        transactionHash: third.transactionHash,
        transactionIndex: '0x2',
        removed: false,
      });
      expect(log.topics[0]).to.equal(keccak256(toHex('Ping(address,uint256,string)')));
      expect(log.topics[1]).to.equal(`0x${devAddress(4).slice(2).padStart(64, '0')}`);
      expect(log.topics[2]).to.equal(`0x${'5'.padStart(64, '0')}`);
    });

    it('logsBloom is set for receipts with logs and empty for those without', async () => {
      const [first, second] = await Promise.all(raws.map((r) => receipt(txHash(r))));
      expect(first.logsBloom).to.not.equal(ZERO_BLOOM);
      expect(second.logsBloom).to.equal(ZERO_BLOOM);
    });
  });

  it('reads the same after eth_sendTransaction in automine mode (receipt available as soon as the call returns)', async () => {
    await node.call('evm_setAutomine', [true]);
    try {
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK }]);
      expect((await receipt(hash)).status).to.equal('0x1');
    } finally {
      await node.call('evm_setAutomine', [false]);
    }
  });
});
