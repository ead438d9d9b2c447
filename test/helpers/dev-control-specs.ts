// The specs of the dev-node methods anvil and Hardhat both name (mining, impersonation, reset, the
// pool, the next block's settings), written once and run under
// both names by test/rpc/anvil/*.spec.ts and test/rpc/hardhat/*.spec.ts.
import { expect } from 'chai';
import { callAs, blockAt, done, freshAddress, headNumber, hex, methodOf, type Dialect } from './dev-calls.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from './node.js';
import { verifyProof } from './proof.js';
import { devKey, expectRpcError, signTx, SINK } from './transactions.js';
import { WsRpc } from './ws-rpc.js';

/** A fresh node per test: these methods change the node for whatever runs after them. */
function freshNode(options: Parameters<typeof startTestNode>[0] = {}) {
  const state: { node?: TestNode } = {};
  beforeEach(async () => {
    state.node = await startTestNode(options);
  });
  afterEach(() => state.node?.destroy());
  return {
    get node() {
      return state.node!;
    },
  };
}

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

export function describeImpersonateAccount(dialect: Dialect): void {
  const method = methodOf(dialect, 'impersonateAccount');
  describe(method, () => {
    const it_ = freshNode();
    const sender = freshAddress(0xbeef);

    it(`answers ${JSON.stringify(done(dialect))}; eth_sendTransaction from the address then works without its key`, async () => {
      const { node } = it_;
      await callAs(node, methodOf(dialect, 'setBalance'), [sender, hex(10n ** 18n)]);
      expect(await callAs(node, method, [sender])).to.equal(done(dialect));
      const hash = await node.call('eth_sendTransaction', [{ from: sender, to: SINK, value: '0x5' }]);
      const receipt = await node.call('eth_getTransactionReceipt', [hash]);
      expect(receipt).to.include({ status: '0x1', from: sender });
      expect((await node.call('eth_getTransactionByHash', [hash]))?.from).to.equal(sender);
      expect(await node.call('eth_getTransactionCount', [sender, 'latest'])).to.equal('0x1');
    });

    it('makes the block commit to the sender: the placeholder signature carries the address', async () => {
      const { node } = it_;
      await callAs(node, methodOf(dialect, 'setBalance'), [sender, hex(10n ** 18n)]);
      await callAs(node, method, [sender]);
      const hash = await node.call('eth_sendTransaction', [{ from: sender, to: SINK }]);
      const tx = (await node.call('eth_getTransactionByHash', [hash]))!;
      expect(BigInt(tx.r)).to.equal((1n << 160n) + BigInt(sender));
      expect(tx.s).to.equal('0x1');
    });

    it('shows the sender in the pool and in the pending block, before a block takes it', async () => {
      const { node } = it_;
      await node.call('evm_setAutomine', [false]);
      await callAs(node, methodOf(dialect, 'setBalance'), [sender, hex(10n ** 18n)]);
      await callAs(node, method, [sender]);
      const hash = await node.call('eth_sendTransaction', [{ from: sender, to: SINK }]);
      expect((await node.call('eth_getTransactionByHash', [hash]))?.from).to.equal(sender);
      const pending = (await node.call('eth_getBlockByNumber', ['pending', true]))!;
      expect((pending.transactions as { hash: string; from: string }[]).map((tx) => [tx.hash, tx.from])).to.deep.equal([[hash, sender]]);
      expect(Object.keys((await node.call('txpool_content', [])).pending).map((a) => a.toLowerCase())).to.deep.equal([sender]);
    });

    it('refuses eth_sendTransaction from an address not impersonated, with -32000 unknown account', async () => {
      await expectRpcError(it_.node.call('eth_sendTransaction', [{ from: freshAddress(0xcafe), to: SINK }]), -32000, /unknown account/);
    });

    it('still signs with the key of a node account', async () => {
      const { node } = it_;
      await callAs(node, method, [DEV_ADDRESSES[1]]);
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: SINK }]);
      expect(BigInt((await node.call('eth_getTransactionByHash', [hash]))!.s)).to.not.equal(1n);
    });
  });
}

export function describeStopImpersonatingAccount(dialect: Dialect): void {
  const method = methodOf(dialect, 'stopImpersonatingAccount');
  describe(method, () => {
    const it_ = freshNode();
    const sender = freshAddress(0xbeef);

    it('ends the impersonation: eth_sendTransaction from the address is refused again', async () => {
      const { node } = it_;
      await callAs(node, methodOf(dialect, 'setBalance'), [sender, hex(10n ** 18n)]);
      await callAs(node, methodOf(dialect, 'impersonateAccount'), [sender]);
      await node.call('eth_sendTransaction', [{ from: sender, to: SINK }]);
      expect(await callAs(node, method, [sender])).to.equal(dialect === 'anvil' ? null : true);
      await expectRpcError(node.call('eth_sendTransaction', [{ from: sender, to: SINK }]), -32000, /unknown account/);
    });

    it(`answers ${dialect === 'anvil' ? 'null' : 'false'} for an address that was not impersonated`, async () => {
      expect(await callAs(it_.node, method, [sender])).to.equal(dialect === 'anvil' ? null : false);
    });
  });
}

export function describeReset(dialect: Dialect): void {
  const method = methodOf(dialect, 'reset');
  describe(method, () => {
    const it_ = freshNode();

    it(`goes back to the genesis block and its state, and answers ${JSON.stringify(done(dialect))}`, async () => {
      const { node } = it_;
      const genesis = await blockAt(node, '0x0');
      const balance = await node.call('eth_getBalance', [DEV_ADDRESSES[0], 'latest']);
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK, value: '0x1' }]);
      expect(await callAs(node, method, [])).to.equal(done(dialect));
      expect(await headNumber(node)).to.equal(0n);
      expect((await blockAt(node, 'latest')).hash).to.equal(genesis.hash);
      expect(await node.call('eth_getBalance', [DEV_ADDRESSES[0], 'latest'])).to.equal(balance);
      expect(await node.call('eth_getTransactionByHash', [hash])).to.equal(null);
      expect(await node.call('eth_getBlockByNumber', ['0x1', false])).to.equal(null);
    });

    it('empties the pool and forgets filters, snapshots and impersonations', async () => {
      const { node } = it_;
      await node.call('evm_setAutomine', [false]);
      await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(1), nonce: 0 })]);
      const filter = await node.call('eth_newBlockFilter', []);
      const snapshot = await node.call('evm_snapshot', []);
      await callAs(node, methodOf(dialect, 'impersonateAccount'), [freshAddress(7)]);
      await callAs(node, method, []);
      expect(await node.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x0' });
      await expectRpcError(node.call('eth_getFilterChanges', [filter]), -32000, 'filter not found');
      expect(await node.call('evm_revert', [snapshot])).to.equal(false);
      await expectRpcError(node.call('eth_sendTransaction', [{ from: freshAddress(7), to: SINK }]), -32000, /unknown account/);
    });

    it('keeps the mining settings', async () => {
      const { node } = it_;
      await node.call('evm_setAutomine', [false]);
      await callAs(node, method, []);
      expect(await callAs(node, methodOf(dialect, 'getAutomine'), [])).to.equal(false);
    });

    it('builds a new dev genesis from genesis settings; a restart without flags resumes it', async () => {
      const { node } = it_;
      await callAs(node, method, [{ genesis: { chainId: '0x539', balance: '0x2a', accounts: 2 } }]);
      expect(await node.call('eth_chainId', [])).to.equal('0x539');
      expect(await node.call('eth_accounts', [])).to.have.length(2);
      expect(await node.call('eth_getBalance', [DEV_ADDRESSES[1], 'latest'])).to.equal('0x2a');
      expect(await node.call('eth_getBalance', [DEV_ADDRESSES[2], 'latest'])).to.equal('0x0');
      const genesis = await blockAt(node, '0x0');
      await node.stop();
      const again = await startTestNode({}, node.dataDir);
      try {
        expect((await blockAt(again, '0x0')).hash).to.equal(genesis.hash);
        expect(await again.call('eth_chainId', [])).to.equal('0x539');
      } finally {
        await again.destroy();
      }
    });

    it('a mnemonic that is not BIP-39: -32602 naming the word, the chain left as it was', async () => {
      const { node } = it_;
      const head = await blockAt(node, 'latest');
      await expectRpcError(
        callAs(node, method, [{ genesis: { mnemonic: 'test test test test test test test test test test test junkk' } }]),
        -32602,
        'invalid argument 0 (options.genesis.mnemonic): word 12, "junkk", is not in the BIP-39 English word list (did you mean "junk"?)',
      );
      await expectRpcError(callAs(node, method, [{ genesis: { mnemonic: '0x0' } }]), -32602, /^invalid argument 0 \(options\.genesis\.mnemonic\): word 1, "0x0", is not in the BIP-39/);
      expect((await blockAt(node, 'latest')).hash).to.equal(head.hash);
    });

    it('mines on after the reset, on the new chain', async () => {
      const { node } = it_;
      await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK, value: '0x1' }]);
      await callAs(node, method, []);
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: SINK, value: '0x1' }]);
      expect((await node.call('eth_getTransactionReceipt', [hash]))?.blockNumber).to.equal('0x1');
    });

    it('keeps WebSocket subscriptions: they hear of the new chain’s blocks from its genesis on', async () => {
      const { node } = it_;
      await node.call('evm_mine', []);
      await node.call('evm_mine', []);
      const ws = await WsRpc.connect(node.url);
      try {
        const id = await ws.call('eth_subscribe', ['newHeads']);
        await callAs(node, method, []);
        await node.call('evm_mine', []);
        const [head] = (await ws.waitFor(id, 1)) as { number: string }[];
        expect(head.number).to.equal('0x1');
      } finally {
        await ws.close();
      }
    });

    it('accepts the forking member as viem sends it, with no URL and a null block number', async () => {
      expect(await callAs(it_.node, method, [{ forking: { blockNumber: null } }])).to.equal(done(dialect));
    });

    it('answers -32000 naming the remote when the chain to fork cannot be reached, and keeps serving its chain', async () => {
      const { node } = it_;
      await expectRpcError(callAs(node, method, [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1', blockNumber: 5 } }]), -32000, /fork's remote http:\/\/127\.0\.0\.1:1 .*cannot connect/);
      expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
    });

    it('refuses a fork block without a URL on a node that forks nothing, with -32602', async () => {
      await expectRpcError(callAs(it_.node, method, [{ forking: { blockNumber: '0x5' } }]), -32602, /forks no remote chain/);
    });

    it('refuses genesis settings no chain may have, with -32602', async () => {
      const { node } = it_;
      await expectRpcError(callAs(node, method, [{ genesis: { gasLimit: '0x1' } }]), -32602, /gasLimit/);
      await expectRpcError(callAs(node, method, [{ genesis: { chainId: '0xffffffffffffffff' } }]), -32602, /chainId/);
      await expectRpcError(callAs(node, method, [{ genesis: { hardfork: 'frontier' } }]), -32602, /hardfork/);
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
