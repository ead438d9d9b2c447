// The specs of the dev-node methods anvil and Hardhat both name (mining, the pool, the next block's
// settings), written once and run under both names by test/rpc/anvil/*.spec.ts and
// test/rpc/hardhat/*.spec.ts; impersonation and reset have files of their own beside this one.
import { expect } from 'chai';
import { callAs, blockAt, done, freshAddress, freshNode, headNumber, hex, methodOf, type Dialect } from './dev-calls.js';
import { DEV_ADDRESSES, startTestNode } from './node.js';
import { verifyProof } from './proof.js';
import { devKey, expectRpcError, signTx, SINK } from './transactions.js';

export function describeMine(dialect: Dialect): void {
  const method = methodOf(dialect, 'mine');
  describe(method, () => {
    const it_ = freshNode({ mining: false });

    it(`mines one block without params and answers ${JSON.stringify(done(dialect))}`, async () => {
      expect(await callAs(it_.node, method, [])).to.equal(done(dialect));
      expect(await headNumber(it_.node)).to.equal(1n);
    });

    it('mines the number of blocks asked for, each `interval` seconds after the one before', async () => {
      const { node } = it_;
      await callAs(node, method, ['0x5', '0xc']);
      expect(await headNumber(node)).to.equal(5n);
      const stamps = await Promise.all([1, 2, 3, 4, 5].map(async (n) => BigInt((await blockAt(node, hex(n))).timestamp)));
      for (let i = 1; i < stamps.length; i++) expect(stamps[i] - stamps[i - 1]).to.equal(12n);
    });

    it('with interval 0 (as viem sends it by default), each block one second after its parent', async () => {
      const { node } = it_;
      await callAs(node, method, ['0x3', '0x0']);
      const [a, b, c] = await Promise.all([1, 2, 3].map(async (n) => BigInt((await blockAt(node, hex(n))).timestamp)));
      expect([b - a, c - b]).to.deep.equal([1n, 1n]);
    });

    it('puts the pool’s executable transactions in the first block; the blocks after it are empty', async () => {
      const { node } = it_;
      const hash = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0 })]);
      await callAs(node, method, ['0x3']);
      expect((await blockAt(node, '0x1')).transactions).to.deep.equal([hash]);
      expect((await blockAt(node, '0x2')).transactions).to.deep.equal([]);
      expect((await blockAt(node, '0x3')).transactions).to.deep.equal([]);
    });

    it('links every block to the one before, and every block’s state stays readable', async () => {
      const { node } = it_;
      await callAs(node, method, ['0x190']);
      let parent = await blockAt(node, '0x0');
      for (let n = 1n; n <= 400n; n++) {
        const block = await blockAt(node, hex(n));
        expect(block.parentHash, `block ${n}`).to.equal(parent.hash);
        parent = block;
      }
      expect(await node.call('eth_getBalance', [DEV_ADDRESSES[0], '0xc8'])).to.match(/^0x[0-9a-f]+$/);
      // EIP-2935: the history contract holds the parent hash of each block it ran in.
      const history = '0x0000f90827f1c53a10cb7a02335b175320002935';
      expect(await node.call('eth_getStorageAt', [history, hex(399n), 'latest'])).to.equal((await blockAt(node, hex(399n))).hash);
    });

    it('mines the blocks evm_mine would mine one by one at the same times, byte for byte, across its batches', async () => {
      // 300 blocks: the first carries a pooled transaction and lands alone, the empty ones after it
      // land in batches of 256 (the first batch ends at block 257).
      const { node } = it_;
      const tx = await signTx({ key: devKey(1), nonce: 0 });
      await node.call('eth_sendRawTransaction', [tx]);
      await callAs(node, method, [hex(300)]);
      const run = await Promise.all(Array.from({ length: 300 }, (_, i) => blockAt(node, hex(i + 1))));
      const oneByOne = await startTestNode({ mining: false });
      try {
        await oneByOne.call('eth_sendRawTransaction', [tx]);
        for (const block of run) await oneByOne.call('evm_mine', [block.timestamp]);
        for (const block of run) expect(await blockAt(oneByOne, block.number), `block ${BigInt(block.number)}`).to.deep.equal(block);
      } finally {
        await oneByOne.destroy();
      }
    });

    it('leaves the state of every block of the run readable and provable against its state root', async () => {
      const { node } = it_;
      await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0 })]);
      await callAs(node, method, [hex(300)]);
      // Block 200, inside the first batch: EIP-2935's history contract holds block 199's hash by
      // then, and block 200's own only from block 201 on.
      const history = '0x0000f90827f1c53a10cb7a02335b175320002935';
      const block = await blockAt(node, hex(200));
      const slots = [hex(199), hex(200)];
      expect(await node.call('eth_getStorageAt', [history, hex(199), block.number])).to.equal((await blockAt(node, hex(199))).hash);
      expect(BigInt(await node.call('eth_getStorageAt', [history, hex(200), block.number]))).to.equal(0n);
      expect(await node.call('eth_getStorageAt', [history, hex(200), 'latest'])).to.equal(block.hash);
      const proof = await node.call('eth_getProof', [history, slots, block.number]);
      await verifyProof(proof, block.stateRoot);
      // A proof's values are quantities: a hash with leading zero bytes loses them.
      expect((proof.storageProof ?? []).map((entry) => BigInt(entry.value))).to.deep.equal([BigInt((await blockAt(node, hex(199))).hash), 0n]);
      const sender = DEV_ADDRESSES[1];
      const balance = await node.call('eth_getBalance', [sender, block.number]);
      expect(BigInt(balance) < BigInt(await node.call('eth_getBalance', [sender, '0x0'])), 'the sender paid for its transaction by then').to.equal(true);
      const senderProof = await node.call('eth_getProof', [sender, [], block.number]);
      await verifyProof(senderProof, block.stateRoot);
      expect(senderProof.balance).to.equal(balance);
    });

    it('takes the count and the interval as JSON numbers, as anvil does', async () => {
      const { node } = it_;
      expect(await callAs(node, method, [5, 12])).to.equal(done(dialect));
      expect(await headNumber(node)).to.equal(5n);
      const [a, b] = await Promise.all([4, 5].map(async (n) => BigInt((await blockAt(node, hex(n))).timestamp)));
      expect(b - a).to.equal(12n);
      await expectRpcError(callAs(node, method, [1.5]), -32602, /blocks/);
      await expectRpcError(callAs(node, method, [-1]), -32602, /blocks/);
    });

    it('refuses a count that does not fit the chain kept in memory, naming the room it has', async () => {
      // A million empty blocks take ~8 GB of heap; Node's default heap is 4 GB at most.
      const inMemory = await startTestNode({ mining: false, dataDir: undefined });
      try {
        await expectRpcError(
          callAs(inMemory, method, [1_000_000]),
          -32602,
          /^invalid argument 0 \(blocks\): 1000000 blocks do not fit: the chain is kept in memory, with [\d,]+ MiB of the node's heap to spare and [\d,]+ MiB of the machine's memory available, room for about \d+ more; mine fewer, or keep the chain on disk \(--data-dir\)$/,
        );
        expect(await headNumber(inMemory)).to.equal(0n);
      } finally {
        await inMemory.destroy();
      }
    });

    it('mines nothing for 0 blocks', async () => {
      await callAs(it_.node, method, ['0x0']);
      expect(await headNumber(it_.node)).to.equal(0n);
    });

    it('refuses more than 1,000,000 blocks, and intervals that would pass the year 9999, with -32602', async () => {
      const { node } = it_;
      await expectRpcError(callAs(node, method, ['0xf4241']), -32602, /blocks/);
      await expectRpcError(callAs(node, method, ['0x2', '0xffffffffffffffff']), -32602, /interval/);
      await expectRpcError(callAs(node, method, ['0x10000000000000000']), -32602, /blocks/);
      expect(await headNumber(node)).to.equal(0n);
    });

    it('lands blocks that survive a restart', async () => {
      await callAs(it_.node, method, ['0x12c']);
      const head = await blockAt(it_.node, 'latest');
      await it_.node.stop();
      const again = await startTestNode({ mining: false }, it_.node.dataDir);
      try {
        expect((await blockAt(again, 'latest')).hash).to.equal(head.hash);
      } finally {
        await again.destroy();
      }
    });
  });
}

export function describeDropTransaction(dialect: Dialect): void {
  const method = methodOf(dialect, 'dropTransaction');
  describe(method, () => {
    const it_ = freshNode({ mining: false });

    it(`takes the transaction out of the pool and answers ${dialect === 'anvil' ? 'its hash' : 'true'}`, async () => {
      const { node } = it_;
      const hash = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0 })]);
      expect(await callAs(node, method, [hash])).to.equal(dialect === 'anvil' ? hash : true);
      expect(await node.call('eth_getTransactionByHash', [hash])).to.equal(null);
      await node.call('evm_mine', []);
      expect((await blockAt(node, 'latest')).transactions).to.deep.equal([]);
    });

    it('queues the sender’s later transactions behind the gap', async () => {
      const { node } = it_;
      const first = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(2), nonce: 0 })]);
      await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(2), nonce: 1 })]);
      await callAs(node, method, [first]);
      expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x1' });
    });

    it(`answers ${dialect === 'anvil' ? 'null' : 'false'} for a hash the pool does not hold`, async () => {
      expect(await callAs(it_.node, method, [`0x${'ab'.repeat(32)}`])).to.equal(dialect === 'anvil' ? null : false);
    });

    if (dialect === 'hardhat') {
      it('refuses a mined transaction with -32602', async () => {
        const { node } = it_;
        const hash = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(3), nonce: 0 })]);
        await node.call('evm_mine', []);
        await expectRpcError(callAs(node, method, [hash]), -32602, /already mined/);
      });
    }
  });
}

export function describeSetNextBlockBaseFeePerGas(dialect: Dialect): void {
  const method = methodOf(dialect, 'setNextBlockBaseFeePerGas');
  describe(method, () => {
    const it_ = freshNode({ mining: false });

    it(`gives the next block that base fee, the ones after it follow EIP-1559 from there; answers ${JSON.stringify(done(dialect))}`, async () => {
      const { node } = it_;
      expect(await callAs(node, method, ['0x2540be400'])).to.equal(done(dialect));
      await node.call('evm_mine', []);
      expect((await blockAt(node, 'latest')).baseFeePerGas).to.equal('0x2540be400');
      await node.call('evm_mine', []);
      // An empty parent: the base fee falls by 1/8.
      expect((await blockAt(node, 'latest')).baseFeePerGas).to.equal(hex((10_000_000_000n * 7n) / 8n));
    });

    it('prices eth_gasPrice and eth_sendTransaction by it', async () => {
      const { node } = it_;
      await callAs(node, method, ['0x2540be400']);
      expect(await node.call('eth_gasPrice', [])).to.equal(hex(10_000_000_000n + 1_000_000_000n));
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK }]);
      await node.call('evm_mine', []);
      expect((await node.call('eth_getTransactionReceipt', [hash]))?.effectiveGasPrice).to.equal(hex(11_000_000_000n));
    });

    it('makes the pool refuse transactions that cannot pay it, as it refuses any below the next block’s base fee', async () => {
      const { node } = it_;
      await callAs(node, method, ['0x174876e800']);
      const raw = await signTx({ key: devKey(4), nonce: 0, maxFeePerGas: 20_000_000_000n });
      await expectRpcError(node.call('eth_sendRawTransaction', [raw]), -32000, /max fee per gas less than block base fee.*baseFee: 100000000000/);
    });
  });

  describe(`${method} on a chain without EIP-1559`, () => {
    const it_ = freshNode({ hardfork: 'berlin', genesisFlagsGiven: true });
    it('is refused with -32602', async () => {
      await expectRpcError(callAs(it_.node, method, ['0x1']), -32602, /only supported when EIP-1559 is active/);
    });
  });
}

export function describeSetCoinbase(dialect: Dialect): void {
  const method = methodOf(dialect, 'setCoinbase');
  describe(method, () => {
    const it_ = freshNode();
    const coinbase = freshAddress(0xc0);

    it(`names the address as the next blocks’ miner, and the tips go to it; answers ${JSON.stringify(done(dialect))}`, async () => {
      const { node } = it_;
      expect(await callAs(node, method, [coinbase])).to.equal(done(dialect));
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK }]);
      const receipt = (await node.call('eth_getTransactionReceipt', [hash]))!;
      const block = await blockAt(node, receipt.blockNumber);
      expect(block.miner).to.equal(coinbase);
      const tip = BigInt(receipt.effectiveGasPrice) - BigInt(block.baseFeePerGas!);
      expect(BigInt(await node.call('eth_getBalance', [coinbase, 'latest']))).to.equal(tip * BigInt(receipt.gasUsed));
    });
  });
}

export function describeGetAutomine(dialect: Dialect): void {
  const method = methodOf(dialect, 'getAutomine');
  describe(method, () => {
    const it_ = freshNode();
    it('answers true on a node that mines each transaction, false once evm_setAutomine turned it off', async () => {
      expect(await callAs(it_.node, method, [])).to.equal(true);
      await it_.node.call('evm_setAutomine', [false]);
      expect(await callAs(it_.node, method, [])).to.equal(false);
    });
  });
  describe(`${method} on a node started with --no-mining`, () => {
    const it_ = freshNode({ mining: false });
    it('answers false', async () => {
      expect(await callAs(it_.node, method, [])).to.equal(false);
    });
  });
}

export function describeSetLoggingEnabled(dialect: Dialect): void {
  const method = methodOf(dialect, 'setLoggingEnabled');
  describe(method, () => {
    const it_ = freshNode();
    it(`answers ${JSON.stringify(done(dialect))} both ways`, async () => {
      expect(await callAs(it_.node, method, [false])).to.equal(done(dialect));
      expect(await callAs(it_.node, method, [true])).to.equal(done(dialect));
    });
  });
}

export function describeSetMinGasPrice(dialect: Dialect): void {
  const method = methodOf(dialect, 'setMinGasPrice');
  describe(`${method} on a chain without EIP-1559`, () => {
    const it_ = freshNode({ hardfork: 'berlin', genesisFlagsGiven: true });
    it(`makes the pool refuse cheaper transactions; answers ${JSON.stringify(done(dialect))}`, async () => {
      const { node } = it_;
      expect(await callAs(node, method, ['0x4a817c800'])).to.equal(done(dialect));
      await expectRpcError(node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0, kind: 'eip155', gasPrice: 10_000_000_000n })]), -32000, /underpriced/);
      const hash = await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0, kind: 'eip155', gasPrice: 20_000_000_000n })]);
      expect((await node.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x1');
    });
  });
  describe(`${method} with EIP-1559 active`, () => {
    const it_ = freshNode();
    it('is refused with -32602, as anvil and Hardhat refuse it', async () => {
      await expectRpcError(callAs(it_.node, method, ['0x1']), -32602, /not supported when EIP-1559 is active/);
    });
  });
}

export function describeRemoveBlockTimestampInterval(dialect: Dialect): void {
  const method = methodOf(dialect, 'removeBlockTimestampInterval');
  const set = methodOf(dialect, 'setBlockTimestampInterval');
  const tenYears = 10 * 365 * 86_400 * (dialect === 'anvil' ? 1 : 1000);
  describe(method, () => {
    const it_ = freshNode({ mining: false });
    it('answers true once an interval was set, and the blocks after it take the clock’s time again', async () => {
      const { node } = it_;
      // Ten years on from genesis: past the clock, which then gives each block its parent's + 1.
      await callAs(node, set, [tenYears]);
      await node.call('evm_mine', []);
      const spaced = BigInt((await blockAt(node, 'latest')).timestamp);
      expect(await callAs(node, method, [])).to.equal(true);
      await node.call('evm_mine', []);
      expect(BigInt((await blockAt(node, 'latest')).timestamp)).to.equal(spaced + 1n);
    });
    it('answers false when no interval is set', async () => {
      expect(await callAs(it_.node, method, [])).to.equal(false);
    });
  });
}

export function describeSetBlockTimestampInterval(dialect: Dialect): void {
  const method = methodOf(dialect, 'setBlockTimestampInterval');
  // viem's test client sends the interval in milliseconds in hardhat mode.
  const unit = dialect === 'anvil' ? 1 : 1000;
  describe(method, () => {
    const it_ = freshNode({ mining: false });

    it(`gives each block its parent’s timestamp plus the interval; answers ${JSON.stringify(done(dialect))}`, async () => {
      const { node } = it_;
      expect(await callAs(node, method, [100 * unit])).to.equal(done(dialect));
      await node.call('evm_mine', []);
      await node.call('evm_mine', []);
      await callAs(node, methodOf(dialect, 'mine'), ['0x2']);
      const stamps = await Promise.all([0, 1, 2, 3, 4].map(async (n) => BigInt((await blockAt(node, hex(n))).timestamp)));
      for (let i = 1; i < stamps.length; i++) expect(stamps[i] - stamps[i - 1], `block ${i}`).to.equal(i <= 3 ? 100n : 1n);
    });

    it('refuses an interval after which the next block would pass the year 9999, with -32602', async () => {
      await expectRpcError(callAs(it_.node, method, [`0x${(253_402_300_799n * BigInt(unit)).toString(16)}`]), -32602, /past the latest/);
    });

    if (dialect === 'hardhat') {
      it('refuses milliseconds that are not whole seconds, with -32602', async () => {
        await expectRpcError(callAs(it_.node, method, [1500]), -32602, /whole number of seconds/);
      });
    }
  });
}
