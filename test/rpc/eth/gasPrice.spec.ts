import { expect } from 'chai';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { devKey, GWEI, signTx } from '../../helpers/transactions.js';

describe('eth_gasPrice', () => {
  const nextBaseFee = async (node: TestNode) => BigInt((await node.call('eth_getBlockByNumber', ['pending', false]))!.baseFeePerGas!);

  it('is the next block’s base fee plus the suggested tip (eth_maxPriorityFeePerGas)', async () => {
    const node = await startTestNode();
    try {
      const [price, tip] = [BigInt(await node.call('eth_gasPrice', [])), BigInt(await node.call('eth_maxPriorityFeePerGas', []))];
      expect(price).to.equal((await nextBaseFee(node)) + tip);
    } finally {
      await node.destroy();
    }
  });

  it('a transaction priced at eth_gasPrice is accepted and mined', async () => {
    const node = await startTestNode();
    try {
      const gasPrice = BigInt(await node.call('eth_gasPrice', []));
      const hash = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(0), nonce: 0, kind: 'eip155', gasPrice })]);
      expect((await node.call('eth_getTransactionReceipt', [hash]))!.status).to.equal('0x1');
    } finally {
      await node.destroy();
    }
  });

  it('never falls below the next base fee when blocks are full and the base fee rises', async () => {
    // A 200,000-gas block limit: nine transfers (189,000 gas) fill well past the 100,000 target.
    const node = await startTestNode({ mining: false, gasLimit: 200_000n, genesisFlagsGiven: true });
    try {
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 9; i++) await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(i), nonce: round, maxFeePerGas: 50n * GWEI })]);
        await node.call('evm_mine', []);
        const latest = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
        expect(latest.transactions).to.have.length(9);
        const next = await nextBaseFee(node);
        expect(next > BigInt(latest.baseFeePerGas!), `round ${round}: base fee rises after a full block`).to.equal(true);
        expect(BigInt(await node.call('eth_gasPrice', [])) >= next).to.equal(true);
      }
    } finally {
      await node.destroy();
    }
  });

  it('never answers a zero base fee, however many empty blocks lower it', async () => {
    const node = await startTestNode({ mining: false });
    try {
      // 1 gwei × (7/8)^n reaches its floor (7 wei, where the decrease rounds to zero) after ~140 blocks.
      for (let i = 0; i < 160; i++) await node.call('evm_mine', []);
      const latest = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
      expect(BigInt(latest.baseFeePerGas!) > 0n).to.equal(true);
      expect(BigInt(latest.baseFeePerGas!) < 100n).to.equal(true);
      expect((await nextBaseFee(node)) > 0n).to.equal(true);
      expect(BigInt(await node.call('eth_gasPrice', [])) > (await nextBaseFee(node))).to.equal(true);
      const history = await node.call('eth_feeHistory', ['0x40', 'latest', []]);
      for (const fee of history.baseFeePerGas) expect(BigInt(fee) > 0n).to.equal(true);
    } finally {
      await node.destroy();
    }
  });
});
