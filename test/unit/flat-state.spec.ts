// The flat state calls run on must answer as the trie state does: the same transactions on both,
// run for run, give the same results, receipts and state afterwards.
import { createBlock, type Block } from '@ethereumjs/block';
import type { StateManagerInterface } from '@ethereumjs/common';
import { createTx, type TypedTxData } from '@ethereumjs/tx';
import { Address, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft, type PrefixedHexString } from '@ethereumjs/util';
import { encodeReceipt, runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import { expect } from 'chai';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { encodeFunctionData, type Abi, type Hex } from 'viem';
import type { Chain } from '../../src/chain/chain.js';
import { deriveAccounts, DEV_MNEMONIC } from '../../src/chain/dev-accounts.js';
import { FlatState } from '../../src/state/flat-state.js';
import { createChainVM } from '../../src/state/vm.js';
import type { Database } from '../../src/storage/database.js';
import { contracts } from '../helpers/contracts.js';
import { openMemoryChain } from '../helpers/memory-chain.js';

const GWEI = 1_000_000_000n;
const accounts = deriveAccounts(DEV_MNEMONIC, 3);
const OPS = '0x00000000000000000000000000000000000057a7';
const FRESH = '0x000000000000000000000000000000000000f4e5';

const abi = () => contracts().StateOps.abi as unknown as Abi;
const input = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: abi(), functionName, args });

/** The transactions both states run, in order: every kind of state access StateOps makes. */
const SCRIPT: { from: number; data?: Hex; value?: bigint; to?: string }[] = [
  { from: 0, data: input('write', [1n, 7n]) },
  { from: 0, data: input('write', [1n, 0n]) },
  { from: 1, data: input('churn', [5n]) },
  { from: 1, data: input('churn', [6n]) },
  { from: 0, data: input('transient', [9n]) },
  { from: 2, data: input('spawn', [11n]), value: 3n },
  { from: 2, data: input('spawnAt', [`0x${'11'.repeat(32)}`, 12n]) },
  { from: 2, data: input('spawnAt', [`0x${'11'.repeat(32)}`, 13n]) },
  { from: 0, data: input('spawnAndDestroy', [14n]), value: 5n },
  { from: 1, data: input('pay', [FRESH]), value: 1000n },
  { from: 1, data: input('tryInner', [21n]) },
  { from: 0, data: input('inspect', [FRESH]) },
  { from: 0, to: FRESH, value: 1n },
  { from: 2, data: input('write', [2n, 2n ** 255n]) },
];

interface Run {
  results: RunTxResult[];
  vm: VM;
}

describe('flat state', () => {
  let db: Database;
  let chain: Chain;

  beforeEach(async () => {
    ({ db, chain } = await openMemoryChain(
      accounts.map((a) => a.address),
      { [OPS]: { balance: '0x0', code: contracts().StateOps.deployedBytecode, storage: { '0x0': '0x2a' } } },
    ));
  });
  afterEach(() => db.close());

  function nextBlock(vm: VM): Block {
    const head = chain.head().header;
    return createBlock(
      { header: { number: head.number + 1n, timestamp: head.timestamp + 12n, gasLimit: head.gasLimit, baseFeePerGas: head.calcNextBaseFee(), coinbase: `0x${'c0'.repeat(20)}` } },
      { common: vm.common, setHardfork: false, skipConsensusFormatValidation: true },
    );
  }

  /** Runs the script inside one outer checkpoint, as calls run. */
  async function runScript(state: StateManagerInterface): Promise<Run> {
    await state.checkpoint();
    const vm = await createChainVM(chain, chain.nextCommon(), state);
    const block = nextBlock(vm);
    const nonces = [0n, 0n, 0n];
    const results: RunTxResult[] = [];
    for (const step of SCRIPT) {
      const data = { type: 2, nonce: nonces[step.from]++, gasLimit: 2_000_000n, to: (step.to ?? OPS) as PrefixedHexString, value: step.value ?? 0n, data: step.data === undefined ? undefined : hexToBytes(step.data), maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI, chainId: 31337n } as TypedTxData;
      const tx = createTx(data, { common: vm.common }).sign(accounts[step.from].privateKey);
      results.push(await runTx(vm, { tx, block }));
    }
    return { results, vm };
  }

  const trieState = async () => chain.state.scratch(chain.head().header.stateRoot);
  const flatState = () => new FlatState(chain.state.snapshot(chain.head().header.stateRoot), chain.nextCommon());

  /** Everything a script's run can have touched: the senders, StateOps and what it made or paid, the coinbase. */
  function touched(run: Run): Address[] {
    const made = run.results.flatMap((r) => (r.createdAddress === undefined ? [] : [r.createdAddress]));
    const returned = run.results.flatMap((r) => (r.execResult.returnValue.length === 32 ? [new Address(r.execResult.returnValue.slice(12))] : []));
    return [...accounts.map((a) => a.address), OPS, FRESH, `0x${'c0'.repeat(20)}`].map((a) => createAddressFromString(a)).concat(made, returned);
  }

  /** StateOps's slots the script wrote or read: a, b, lastChild, and slots[k] for the keys it used. */
  function slots(): Uint8Array[] {
    const mapping = (key: bigint) => keccak256(new Uint8Array([...setLengthLeft(hexToBytes(`0x${key.toString(16).padStart(2, '0')}`), 32), ...setLengthLeft(new Uint8Array([2]), 32)]));
    return [0, 1, 3].map((n) => setLengthLeft(new Uint8Array([n]), 32)).concat([1n, 2n, 5n, 6n, 9n, 21n].map(mapping));
  }

  /**
   * The state as the EVM can see it. Not the accounts' storage roots: the trie state hashes every
   * storage write into its account at once, the flat state computes no root and keeps the one the
   * account had. The EVM reads a storage root only to refuse a CREATE onto an account with storage
   * (EIP-7610), and an account given storage by a run has code or a nonce too, which refuse it already.
   */
  async function describeState(state: StateManagerInterface, addresses: Address[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const address of addresses) {
      const account = await state.getAccount(address);
      out[address.toString()] = {
        account: account === undefined ? null : { nonce: account.nonce, balance: account.balance, codeHash: bytesToHex(account.codeHash) },
        code: bytesToHex(await state.getCode(address)),
        storage: await Promise.all(slots().map(async (slot) => bytesToHex(await state.getStorage(address, slot)))),
      };
    }
    return out;
  }

  const outcome = (result: RunTxResult, i: number) => ({
    step: i,
    returned: bytesToHex(result.execResult.returnValue),
    error: result.execResult.exceptionError?.error,
    gas: result.totalGasSpent,
    refund: result.gasRefund,
    created: result.createdAddress?.toString(),
    receipt: bytesToHex(encodeReceipt(result.receipt, 2)),
  });

  it('runs transactions as the trie state runs them: the same results, gas, refunds, logs and receipts', async () => {
    const trie = await runScript(await trieState());
    const flat = await runScript(flatState());
    expect(flat.results.map(outcome)).to.deep.equal(trie.results.map(outcome));
    // The script exercises what it claims to: a revert caught inside, a creation, a refund.
    expect(trie.results.every((r) => r.execResult.exceptionError === undefined)).to.equal(true);
    expect(trie.results.some((r) => r.gasRefund > 0n)).to.equal(true);
  });

  it('leaves the same state behind: accounts, code and storage of everything the transactions touched', async () => {
    const trie = await runScript(await trieState());
    const flat = await runScript(flatState());
    const addresses = touched(trie);
    expect(await describeState(flat.vm.stateManager, addresses)).to.deep.equal(await describeState(trie.vm.stateManager, addresses));
  });

  it('a run between a checkpoint and a revert leaves the state as it found it', async () => {
    const state = flatState();
    const addresses = touched(await runScript(await trieState()));
    const before = await describeState(state, addresses);
    const run = await runScript(state);
    expect(await describeState(state, addresses)).to.not.deep.equal(before);
    await run.vm.stateManager.revert();
    expect(await describeState(state, addresses)).to.deep.equal(before);
  });

  it('answers as the trie state does through clears, deletions, new code and nested checkpoints', async () => {
    const ops = createAddressFromString(OPS);
    const fresh = createAddressFromString(FRESH);
    const slot = (n: number) => setLengthLeft(new Uint8Array([n]), 32);
    const steps: ((s: StateManagerInterface) => Promise<unknown>)[] = [
      (s) => s.checkpoint(),
      (s) => s.putStorage(ops, slot(1), new Uint8Array([0, 0, 5])),
      (s) => s.checkpoint(),
      (s) => s.clearStorage(ops),
      (s) => s.putStorage(ops, slot(2), new Uint8Array([6])),
      (s) => s.commit(),
      (s) => s.checkpoint(),
      (s) => s.putCode(fresh, new Uint8Array([0x60, 0x00])),
      (s) => s.putStorage(fresh, slot(0), new Uint8Array([9])),
      (s) => s.revert(),
      (s) => s.checkpoint(),
      (s) => s.deleteAccount(ops),
      (s) => s.putAccount(ops, undefined),
      (s) => s.modifyAccountFields(ops, { nonce: 3n }),
      (s) => s.commit(),
      (s) => s.putCode(fresh, new Uint8Array([0x60, 0x01])),
    ];
    const reads = async (s: StateManagerInterface) => ({
      ops: await describeState(s, [ops, fresh]),
      slot0: bytesToHex(await s.getStorage(ops, slot(0))),
      size: await s.getCodeSize(fresh),
    });
    const flat = flatState();
    const trie = await trieState();
    const seen: { flat: unknown[]; trie: unknown[] } = { flat: [], trie: [] };
    for (const step of steps) {
      await step(flat);
      await step(trie);
      seen.flat.push(await reads(flat));
      seen.trie.push(await reads(trie));
    }
    expect(seen.flat).to.deep.equal(seen.trie);
    expect(seen.trie[0]).to.have.property('slot0', '0x2a');
  });

  it('refuses what MerkleStateManager refuses, in its words', async () => {
    const state = flatState();
    const nobody = createAddressFromString(FRESH);
    const errorOf = (run: Promise<unknown>) => run.then(() => undefined, (error: Error) => error.message);
    const trie = await trieState();
    for (const run of [
      (s: StateManagerInterface) => s.getStorage(nobody, new Uint8Array(31)),
      (s: StateManagerInterface) => s.putStorage(nobody, new Uint8Array(32), new Uint8Array(1)),
      (s: StateManagerInterface) => s.putStorage(createAddressFromString(OPS), new Uint8Array(32), new Uint8Array(33)),
    ]) {
      expect(await errorOf(run(state))).to.equal(await errorOf(run(trie))).and.to.be.a('string');
    }
  });
});
