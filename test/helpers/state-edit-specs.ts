// The specs of anvil_setBalance, anvil_setCode, anvil_setNonce and anvil_setStorageAt, written once
// and run under both names (test/rpc/anvil/*.spec.ts and test/rpc/hardhat/*.spec.ts).
import { expect } from 'chai';
import { callAs, done, freshAddress, headNumber, hex, methodOf, type Dialect } from './dev-calls.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from './node.js';
import { verifyProof } from './proof.js';
import { devAddress, devKey, expectRpcError, signTx, SINK } from './transactions.js';

const ETHER = 10n ** 18n;
/** Runtime code that returns the word 0x2a. */
const RETURNS_42 = '0x602a60005260206000f3';

/** Starts a node per describe and restarts it on the same data dir on demand. */
function nodeFor(options: Parameters<typeof startTestNode>[0] = {}) {
  const state: { node: TestNode } = { node: undefined as unknown as TestNode };
  before(async () => {
    state.node = await startTestNode(options);
  });
  after(() => state.node.destroy());
  const restart = async () => {
    await state.node.stop();
    state.node = await startTestNode(options, state.node.dataDir);
  };
  return { get node() { return state.node; }, restart };
}

export function describeSetBalance(dialect: Dialect): void {
  const method = methodOf(dialect, 'setBalance');
  describe(method, () => {
    const it_ = nodeFor();

    it(`answers ${JSON.stringify(done(dialect))}, and reads at latest see the balance at once, without a block`, async () => {
      const { node } = it_;
      const before = await headNumber(node);
      expect(await callAs(node, method, [freshAddress(1), hex(5n * ETHER)])).to.equal(done(dialect));
      expect(await node.call('eth_getBalance', [freshAddress(1), 'latest'])).to.equal(hex(5n * ETHER));
      expect(await headNumber(node)).to.equal(before);
    });

    it('changes a node account’s balance, which then pays for its transactions', async () => {
      const { node } = it_;
      await callAs(node, method, [DEV_ADDRESSES[2], hex(ETHER)]);
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[2], to: SINK, value: hex(ETHER / 2n) }]);
      expect((await node.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x1');
      const left = BigInt(await node.call('eth_getBalance', [DEV_ADDRESSES[2], 'latest']));
      expect(left < ETHER / 2n).to.equal(true);
    });

    it('edits the state after the head block, which reads at its number see; the blocks before keep theirs', async () => {
      const { node } = it_;
      await node.call('evm_mine', []);
      const head = await headNumber(node);
      const old = await node.call('eth_getBalance', [devAddress(3), hex(head)]);
      await callAs(node, method, [devAddress(3), '0x7']);
      await node.call('evm_mine', []);
      expect(await node.call('eth_getBalance', [devAddress(3), 'latest'])).to.equal('0x7');
      expect(await node.call('eth_getBalance', [devAddress(3), hex(head)])).to.equal('0x7');
      expect(await node.call('eth_getBalance', [devAddress(3), hex(head - 1n)])).to.equal(old);
    });

    it('is part of the next block’s state: its proof verifies against that block’s state root', async () => {
      const { node } = it_;
      await callAs(node, method, [freshAddress(2), hex(3n * ETHER)]);
      await node.call('evm_mine', []);
      const block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
      const proof = await node.call('eth_getProof', [freshAddress(2), [], 'latest']);
      expect(proof.balance).to.equal(hex(3n * ETHER));
      await verifyProof(proof, block.stateRoot);
    });

    it('survives a restart', async () => {
      await callAs(it_.node, method, [freshAddress(3), '0x2a']);
      await it_.restart();
      expect(await it_.node.call('eth_getBalance', [freshAddress(3), 'latest'])).to.equal('0x2a');
    });

    it('removes an account it leaves empty (EIP-161), so the state is as if it never existed', async () => {
      const { node } = it_;
      const root = async () => (await node.call('eth_getProof', [freshAddress(4), [], 'latest'])).accountProof.at(-1);
      const absent = await root();
      await callAs(node, method, [freshAddress(4), '0x1']);
      await callAs(node, method, [freshAddress(4), '0x0']);
      expect(await root()).to.equal(absent);
    });

    it('takes 256-bit balances and refuses more with -32602', async () => {
      const { node } = it_;
      await callAs(node, method, [freshAddress(5), `0x${'f'.repeat(64)}`]);
      expect(await node.call('eth_getBalance', [freshAddress(5), 'latest'])).to.equal(`0x${'f'.repeat(64)}`);
      await expectRpcError(callAs(node, method, [freshAddress(5), `0x1${'0'.repeat(64)}`]), -32602, /balance/);
    });
  });
}

export function describeSetCode(dialect: Dialect): void {
  const method = methodOf(dialect, 'setCode');
  describe(method, () => {
    const it_ = nodeFor();

    it(`answers ${JSON.stringify(done(dialect))}; eth_getCode answers the code and eth_call runs it`, async () => {
      const { node } = it_;
      expect(await callAs(node, method, [freshAddress(1), RETURNS_42])).to.equal(done(dialect));
      expect(await node.call('eth_getCode', [freshAddress(1), 'latest'])).to.equal(RETURNS_42);
      expect(BigInt(await node.call('eth_call', [{ to: freshAddress(1) }, 'latest']))).to.equal(42n);
    });

    it('keeps the account’s balance and nonce', async () => {
      const { node } = it_;
      const before = await node.call('eth_getBalance', [devAddress(4), 'latest']);
      await callAs(node, method, [devAddress(4), RETURNS_42]);
      expect(await node.call('eth_getBalance', [devAddress(4), 'latest'])).to.equal(before);
      expect(await node.call('eth_getCode', [devAddress(4), 'latest'])).to.equal(RETURNS_42);
    });

    it('removes the code when given 0x', async () => {
      const { node } = it_;
      await callAs(node, method, [freshAddress(2), RETURNS_42]);
      await callAs(node, method, [freshAddress(2), '0x']);
      expect(await node.call('eth_getCode', [freshAddress(2), 'latest'])).to.equal('0x');
    });

    it('transactions to it run the code in the next block', async () => {
      const { node } = it_;
      // Stores 1 in slot 0 when called: PUSH1 1 PUSH1 0 SSTORE STOP.
      await callAs(node, method, [freshAddress(3), '0x6001600055']);
      const hash = await node.call('eth_sendTransaction', [{ from: devAddress(5), to: freshAddress(3), gas: '0x186a0' }]);
      expect((await node.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x1');
      expect(BigInt(await node.call('eth_getStorageAt', [freshAddress(3), '0x0', 'latest']))).to.equal(1n);
    });

    it('survives a restart', async () => {
      await callAs(it_.node, method, [freshAddress(4), RETURNS_42]);
      await it_.restart();
      expect(await it_.node.call('eth_getCode', [freshAddress(4), 'latest'])).to.equal(RETURNS_42);
    });
  });
}

export function describeSetNonce(dialect: Dialect): void {
  const method = methodOf(dialect, 'setNonce');
  describe(method, () => {
    const it_ = nodeFor({ mining: false });

    it(`answers ${JSON.stringify(done(dialect))} and eth_getTransactionCount answers the nonce`, async () => {
      const { node } = it_;
      expect(await callAs(node, method, [freshAddress(1), '0x5'])).to.equal(done(dialect));
      expect(await node.call('eth_getTransactionCount', [freshAddress(1), 'latest'])).to.equal('0x5');
    });

    it('drops pooled transactions below the new nonce', async () => {
      const { node } = it_;
      const raw = await signTx({ key: devKey(6), nonce: 0 });
      const hash = await node.call('eth_sendRawTransaction', [raw]);
      await callAs(node, method, [devAddress(6), '0x1']);
      expect(await node.call('eth_getTransactionByHash', [hash])).to.equal(null);
      expect((await node.call('txpool_status', [])).pending).to.equal('0x0');
    });

    it('queues pooled transactions behind the gap a higher nonce leaves… and a lower one makes them pending again', async () => {
      const { node } = it_;
      const sender = devAddress(7);
      await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(7), nonce: 2 })]);
      expect((await node.call('txpool_contentFrom', [sender])).queued).to.have.property('2');
      await callAs(node, method, [sender, '0x2']);
      expect((await node.call('txpool_contentFrom', [sender])).pending).to.have.property('2');
    });

    it('eth_sendTransaction picks the new nonce', async () => {
      const { node } = it_;
      await callAs(node, method, [DEV_ADDRESSES[1], '0x9']);
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: SINK, value: '0x1' }]);
      expect((await node.call('eth_getTransactionByHash', [hash]))?.nonce).to.equal('0x9');
    });

    it('refuses a nonce past 64 bits with -32602', async () => {
      await expectRpcError(callAs(it_.node, method, [freshAddress(2), '0x10000000000000000']), -32602, /nonce/);
    });

    it('survives a restart', async () => {
      await callAs(it_.node, method, [freshAddress(3), '0x2a']);
      await it_.restart();
      expect(await it_.node.call('eth_getTransactionCount', [freshAddress(3), 'latest'])).to.equal('0x2a');
    });
  });
}

export function describeSetStorageAt(dialect: Dialect): void {
  const method = methodOf(dialect, 'setStorageAt');
  const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
  describe(method, () => {
    const it_ = nodeFor();

    it('answers true and eth_getStorageAt answers the word', async () => {
      const { node } = it_;
      expect(await callAs(node, method, [freshAddress(1), '0x0', word(42n)])).to.equal(true);
      expect(await node.call('eth_getStorageAt', [freshAddress(1), '0x0', 'latest'])).to.equal(word(42n));
    });

    it('takes the slot and the value as quantities or words, left-padding the value', async () => {
      const { node } = it_;
      await callAs(node, method, [freshAddress(2), word(7n), '0x2a']);
      expect(await node.call('eth_getStorageAt', [freshAddress(2), '0x7', 'latest'])).to.equal(word(42n));
    });

    it('clears the slot with zero', async () => {
      const { node } = it_;
      await callAs(node, method, [freshAddress(3), '0x1', '0x5']);
      await callAs(node, method, [freshAddress(3), '0x1', word(0n)]);
      expect(await node.call('eth_getStorageAt', [freshAddress(3), '0x1', 'latest'])).to.equal(word(0n));
    });

    it('writes into a contract’s storage, which its code then reads', async () => {
      const { node } = it_;
      // Returns slot 3: PUSH1 3 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN.
      await callAs(node, methodOf(dialect, 'setCode'), [freshAddress(4), '0x60035460005260206000f3']);
      await callAs(node, method, [freshAddress(4), '0x3', '0x99']);
      expect(BigInt(await node.call('eth_call', [{ to: freshAddress(4) }, 'latest']))).to.equal(0x99n);
    });

    it('is part of the next block’s state: the storage proof verifies', async () => {
      const { node } = it_;
      await callAs(node, method, [freshAddress(5), '0x0', '0x1234']);
      await node.call('evm_mine', []);
      const block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
      const proof = await node.call('eth_getProof', [freshAddress(5), ['0x0'], 'latest']);
      expect(proof.storageProof?.[0]?.value).to.equal('0x1234');
      await verifyProof(proof, block.stateRoot);
    });

    it('refuses a value longer than 32 bytes with -32602', async () => {
      await expectRpcError(callAs(it_.node, method, [freshAddress(6), '0x0', `0x${'1'.repeat(65)}`]), -32602, /value/);
    });

    it('survives a restart', async () => {
      await callAs(it_.node, method, [freshAddress(7), '0x0', '0x77']);
      await it_.restart();
      expect(BigInt(await it_.node.call('eth_getStorageAt', [freshAddress(7), '0x0', 'latest']))).to.equal(0x77n);
    });
  });
}
