import { createBlock, type Block } from '@ethereumjs/block';
import { Hardfork, type Common } from '@ethereumjs/common';
import { createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx';
import { bytesToHex, createZeroAddress, createAddressFromString, equalsBytes, type Address, hexToBytes, KECCAK256_NULL, toChecksumAddress, type PrefixedHexString } from '@ethereumjs/util';
import type { EVMResult } from '@ethereumjs/evm';
import type { VM, RunTxResult } from '@ethereumjs/vm';
import type { StateOverride, TransactionCall } from '../../generated/types.js';
import { CACHE_LIMITS } from '../caches.js';
import type { StateStore } from './state-store.js';
import { callRequest, type ListedKeys } from './run-request.js';
import { asContractSender } from './contract-sender.js';
import { FlatState } from './flat-state.js';
import { applyStateOverrides, movesPrecompiles, unpriced, usePrecompiles, withBlockOverrides, type CallOverrides } from './overrides.js';
import { messageCallsServe, messageGas, runMessageCall } from './message-call.js';
import { createChainVM, loadVmLibrary, type BlockHistory } from './vm.js';
import { VmPool, type VmLease } from './vm-pool.js';

/** EIP-7825 (Osaka) caps a transaction's gas at 2^24. */
const TX_GAS_CAP = 1n << 24n;
/** geth's default RPC gas cap: the most gas a call may ask for before EIP-7825. */
const RPC_GAS_CAP = 50_000_000n;

export interface CallOutcome {
  result?: RunTxResult;
  /** set when the transaction could not even start (intrinsic gas, funds…) */
  invalid?: string;
}

/** What a call returned, run for that alone ({@link CallRunner.output}): its message's result, or why it could not start. */
export interface CallOutput {
  result?: EVMResult;
  invalid?: string;
}

/** How a caller wraps the run of the call's transaction `tx` (to trace it): `execute` runs it on `vm`, in `block`. */
export type AroundRun = (vm: VM, execute: () => Promise<RunTxResult>, tx: TypedTransaction, block: Block) => Promise<RunTxResult>;

/** Runs a prepared call with a gas limit; `balance` is the sender's at the call's block. */
export interface CallRunner {
  (gas?: bigint, around?: AroundRun): Promise<CallOutcome>;
  balance: bigint;
  /** the sender's nonce at the call's block */
  nonce: bigint;
  /** the gas price the sender is charged at most (zero for an unpriced call) */
  feeCap: bigint;
  /** Runs the call with a gas limit (else its own) for what it returns alone, not the gas it spends: see {@link runMessageCall}. */
  output(gas?: bigint): Promise<CallOutput>;
  /** Hands the VM back for later calls; the runner must not run again. (A runner never released just costs a VM.) */
  release(): void;
}

/**
 * What watches the VMs calls run on (the terminal, for console.log): each VM once, as it is made, and
 * each request that names itself (eth_call, eth_estimateGas) as its runs start on a VM, which answers
 * what to do once they are over. A VM serves one call at a time, so the VM tells whose runs they are.
 */
export interface CallWatch {
  vmMade(vm: VM): void;
  callOn(vm: VM, request: string): () => void;
}

/** Why a call did not succeed: it could not start, it reverted (with data), or the EVM stopped it. */
export type CallFault = { kind: 'invalid'; message: string } | { kind: 'revert'; data: Uint8Array } | { kind: 'halt'; message: string };

export class CallFailure extends Error {
  constructor(readonly fault: CallFault) {
    super(fault.kind === 'revert' ? 'execution reverted' : fault.message);
  }
}

export function faultOf(outcome: CallOutput): CallFault | undefined {
  if (outcome.invalid !== undefined) return { kind: 'invalid', message: outcome.invalid };
  const error = outcome.result?.execResult.exceptionError;
  if (error === undefined) return undefined;
  if (error.error === 'revert') return { kind: 'revert', data: outcome.result!.execResult.returnValue };
  return { kind: 'halt', message: error.error };
}

const big = (hex: string | undefined) => (hex === undefined ? undefined : BigInt(hex));
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** The fee cap, tip and value a call is priced with: the fields `transaction` builds it from. */
function feesOf(request: TransactionCall, common: Common): { cap: bigint; tip: bigint; value: bigint } {
  const value = big(request.value) ?? 0n;
  if (!isDynamic(request, common)) {
    const price = big(request.gasPrice) ?? 0n;
    return { cap: price, tip: price, value };
  }
  return { cap: big(request.maxFeePerGas) ?? 0n, tip: big(request.maxPriorityFeePerGas) ?? 0n, value };
}

/** With an authorization list the call runs as a set-code transaction, so the delegations (and their gas) count. */
function isSetCode(request: TransactionCall, common: Common): boolean {
  return (request.authorizationList?.length ?? 0) > 0 && request.to !== undefined && request.to !== null && common.isActivatedEIP(7702);
}

/** Priced by EIP-1559 fee fields (before London they are ignored, and the call runs at gas price 0). */
function isDynamic(request: TransactionCall, common: Common): boolean {
  if (isSetCode(request, common)) return true;
  return common.isActivatedEIP(1559) && (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined);
}

/** What calls read of the chain: the fork rules and state of a block, and the blocks before it. */
export interface ExecutionChain extends BlockHistory {
  commonAt(header: { number: bigint; timestamp: bigint }): Common;
  /** the state after `block`: its header's root, or the one state edits left on it */
  stateRootOf(block: Block): Uint8Array;
  readonly state: StateStore;
}

/**
 * Runs call objects (eth_call, eth_estimateGas) against a block's state, each run between a
 * checkpoint and a revert of a VM borrowed for the call: nothing they do reaches the chain.
 */
export class Executor {
  private readonly vms = new VmPool();
  /** The block context calls run in, per block and pricing (see prepare); the newest few. */
  private readonly contexts = new Map<string, Block>();

  constructor(
    private readonly chain: ExecutionChain,
    private readonly watch?: CallWatch,
  ) {}

  /**
   * A VM on `block`'s state. From Byzantium on, one kept per fork over a flat state moved to the
   * block's snapshot; before it a transaction's receipt needs the state root after it, which only
   * the trie computes, so those calls run on a trie view of their block.
   */
  private async lease(block: Block): Promise<VmLease> {
    const { chain } = this;
    const common = chain.commonAt(block.header);
    const root = chain.stateRootOf(block);
    if (!common.gteHardfork(Hardfork.Byzantium)) {
      return this.vms.acquire(`block:${bytesToHex(block.hash())}:${bytesToHex(root)}`, async () => this.watched(createChainVM(chain, common, await chain.state.scratch(root))));
    }
    const snapshot = chain.state.snapshot(root);
    const lease = await this.vms.acquire(`fork:${common.hardfork()}`, () => this.watched(createChainVM(chain, common, new FlatState(snapshot, common))));
    (lease.vm.stateManager as FlatState).use(snapshot);
    return lease;
  }

  private async watched(created: Promise<VM>): Promise<VM> {
    const vm = await created;
    this.watch?.vmMade(vm);
    return vm;
  }

  /** The gas a call runs with when it names none: the block's gas limit, within the fork's per-transaction cap. */
  gasCap(block: Block): bigint {
    const limit = block.header.gasLimit;
    return this.txGasCapped(block) && limit > TX_GAS_CAP ? TX_GAS_CAP : limit;
  }

  /**
   * The most gas a call may ask for; more is capped to it, as geth caps a call's gas at its RPC gas
   * cap. Under EIP-7825 no transaction may carry more than 2^24, and the EVM will not run one that does.
   */
  maxGas(block: Block): bigint {
    if (this.txGasCapped(block)) return TX_GAS_CAP;
    const limit = block.header.gasLimit;
    return limit > RPC_GAS_CAP ? limit : RPC_GAS_CAP;
  }

  private txGasCapped(block: Block): boolean {
    return this.chain.commonAt(block.header).isActivatedEIP(7825);
  }

  /** Runs a call; throws CallFailure unless it succeeds. `named`: the request it answers, for the watch. */
  async call(request: TransactionCall, block: Block, overrides?: CallOverrides, named?: string): Promise<Uint8Array> {
    const run = await this.prepare(request, this.target(block, overrides), overrides, named);
    let outcome: CallOutput;
    try {
      outcome = await run.output();
    } finally {
      run.release();
    }
    const fault = faultOf(outcome);
    if (fault !== undefined) throw new CallFailure(fault);
    return outcome.result!.execResult.returnValue;
  }

  /**
   * The least gas with which the call succeeds, found as geth does: check it succeeds with all the
   * gas it may have, then binary-search. Throws CallFailure when it fails even with all of it.
   */
  async estimateGas(request: TransactionCall, block: Block, overrides?: CallOverrides, named?: string): Promise<bigint> {
    const target = this.target(block, overrides);
    const run = await this.prepare(request, target, overrides, named);
    try {
      return await this.search(request, target, run);
    } finally {
      run.release();
    }
  }

  private async search(request: TransactionCall, block: Block, run: CallRunner): Promise<bigint> {
    let hi = request.gas !== undefined ? min(BigInt(request.gas), this.maxGas(block)) : this.gasCap(block);
    // As geth: the value must be affordable, and a priced call may use no more gas than the rest of the balance buys.
    const value = big(request.value) ?? 0n;
    if (value > run.balance) throw new CallFailure({ kind: 'invalid', message: 'insufficient funds for transfer' });
    const price = run.feeCap;
    const allowance = price > 0n ? (run.balance - value) / price : undefined;
    if (allowance !== undefined && allowance < hi) hi = allowance;
    const first = await run(hi);
    const fault = faultOf(first);
    if (fault !== undefined && fault.kind !== 'revert' && allowance === hi) throw new CallFailure({ kind: 'invalid', message: `gas required exceeds allowance (${hi})` });
    if (fault !== undefined) throw new CallFailure(fault);
    // Only the first run's gas counts; the search asks whether each run succeeds, which the bare message answers alike.
    const succeeds = async (gas: bigint) => faultOf(await run.output(gas)) === undefined;
    const used = first.result!.totalGasSpent;
    let lo = used - 1n;
    // Most calls need only what they used plus what EIP-150 holds back from subcalls; try that first.
    const optimistic = ((used + 2300n) * 64n) / 63n;
    if (optimistic < hi && (await succeeds(optimistic))) hi = optimistic;
    while (lo + 1n < hi) {
      const mid = (lo + hi) / 2n;
      if (await succeeds(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  /** The block a call runs in: `block`, or its header with the block overrides. */
  target(block: Block, overrides?: CallOverrides): Block {
    return overrides?.block === undefined ? block : withBlockOverrides(block, overrides.block, (header) => this.chain.commonAt(header));
  }

  /**
   * Prepares a VM on `block`'s state (with `overrides`, if any: `block` is then the target); `run`
   * executes the call with a given gas limit, each run from the same state. `named`: the request the
   * runs answer, shown to the watch.
   */
  async prepare(request: TransactionCall, block: Block, overrides?: CallOverrides, named?: string): Promise<CallRunner> {
    const lease = overrides === undefined ? await this.lease(block) : await this.overridden(block, overrides);
    const { vm } = lease;
    const over = named === undefined ? undefined : this.watch?.callOn(vm, named);
    // A run that threw (a fork's remote failing under a state read, say) may leave the EVM's own
    // checkpoints open in the state: that VM serves no other call.
    let broken = false;
    const state = vm.stateManager;
    const release = () => {
      over?.();
      if (state instanceof FlatState) state.watchReads(undefined);
      if (broken) lease.discard();
      else lease.release();
    };
    const fees = feesOf(request, vm.common);
    // As geth: a call whose fees are all zero is unpriced, and runs without a base fee.
    const priced = fees.cap > 0n || fees.tip > 0n;
    const context = overrides?.block === undefined ? this.contextOf(block, priced, vm) : unpriced(block, priced, vm.common);
    const from = request.from === undefined ? createZeroAddress() : createAddressFromString(request.from);
    if (overrides === undefined && this.chain.state.forked) {
      const root = this.chain.stateRootOf(block);
      const listed = (request.accessList ?? []).map((entry): ListedKeys => [hexToBytes(entry.address as PrefixedHexString), entry.storageKeys.map((key) => hexToBytes(key as PrefixedHexString))]);
      await this.chain.state.readyForCall(root, from, request.to == null ? undefined : createAddressFromString(request.to), listed);
      if (state instanceof FlatState) state.watchReads(this.chain.state.watchFor(root, callRequest(request), false));
    }
    const account = await state.getAccount(from);
    const nonce = account?.nonce ?? 0n;
    const senderHasCode = account !== undefined && !equalsBytes(account.codeHash, KECCAK256_NULL);
    const balance = account?.balance ?? 0n;
    const requestedGas = big(request.gas);
    const gasLimit = requestedGas === undefined ? this.gasCap(block) : min(requestedGas, this.maxGas(block));
    // geth's pre-checks, in its words and in its order, before the transaction is built (the
    // library refuses to build one whose gas × fee overflows 256 bits, which geth answers as
    // insufficient funds). An unpriced call's fee cap is zero, so only the value counts.
    const refused = (limit: bigint): string | undefined => {
      if (fees.tip > fees.cap) return `max priority fee per gas higher than max fee per gas: address ${toChecksumAddress(from.toString())}, maxPriorityFeePerGas: ${fees.tip}, maxFeePerGas: ${fees.cap}`;
      const cost = limit * fees.cap + fees.value;
      if (balance < cost) return `insufficient funds for gas * price + value: address ${toChecksumAddress(from.toString())} have ${balance} want ${cost}`;
      return undefined;
    };
    // Each run goes between a checkpoint and a revert; one that threw leaves its VM to be discarded.
    const isolated = async <R>(body: () => Promise<R>): Promise<{ result: R } | { invalid: string }> => {
      await state.checkpoint();
      try {
        return { result: await body() };
      } catch (error) {
        broken = true;
        return { invalid: (error as Error).message.replace(/ -> .*$/s, '') };
      } finally {
        if (!broken) await state.revert();
      }
    };
    const run = async (gas?: bigint, around?: AroundRun): Promise<CallOutcome> => {
      const limit = gas ?? gasLimit;
      const invalid = refused(limit);
      if (invalid !== undefined) return { invalid };
      const tx = this.transaction(request, vm, from, nonce, limit);
      const intrinsic = tx.getIntrinsicGas();
      if (tx.gasLimit < intrinsic) return { invalid: `intrinsic gas too low: have ${tx.gasLimit}, want ${intrinsic}` };
      return isolated(async () => {
        const { runTx } = await loadVmLibrary();
        const run = () => runTx(vm, { tx, block: context, skipNonce: true, skipBalance: true, skipBlockGasLimitValidation: true, skipHardForkValidation: true });
        // As geth's calls do, a sender with code (a contract, a Safe) may call; the library checks EIP-3607 otherwise.
        const execute = senderHasCode ? () => asContractSender(vm, from, run) : run;
        return around === undefined ? execute() : around(vm, execute, tx, context);
      });
    };
    // An unpriced call from an account without code to an account, with no access or authorization
    // list, runs as a bare message (worked out at its first run; eth_estimateGas runs it many times);
    // any other as a transaction, as does one with too little gas for its transaction (run says so
    // in the library's words).
    let message: { to: Address; data: Uint8Array; intrinsic: bigint; least: bigint } | null | undefined;
    const messageOf = () => {
      const bare = !priced && !senderHasCode && request.to != null && (request.accessList?.length ?? 0) === 0 && (request.authorizationList?.length ?? 0) === 0;
      if (!bare || !messageCallsServe(vm.common)) return null;
      const data = hexToBytes((request.input ?? request.data ?? '0x') as PrefixedHexString);
      return { to: createAddressFromString(request.to!), data, ...messageGas(vm.common, data) };
    };
    const output = async (gas?: bigint): Promise<CallOutput> => {
      const limit = gas ?? gasLimit;
      message ??= messageOf();
      if (message === null || limit < message.least) return run(limit);
      const invalid = refused(limit);
      if (invalid !== undefined) return { invalid };
      const { to, data, intrinsic } = message;
      return isolated(() => runMessageCall(vm, { from, to, value: fees.value, data, gasLimit: limit, block: context }, intrinsic));
    };
    return Object.assign(run, { balance, nonce, feeCap: fees.cap, output, release });
  }

  /**
   * A VM for a call with overrides, on the given state, or `block`'s, with the state overrides applied.
   * Overrides that leave the precompiles where they are go into a checkpoint of a borrowed VM, reverted
   * before it goes back (a VM of its own cost ~3 ms of CPU a call where a plain one costs ~0.6);
   * moving a precompile changes the EVM's table, so that call gets a VM of its own, thrown away after it.
   */
  private async overridden(block: Block, overrides: CallOverrides): Promise<VmLease> {
    if (overrides.vm === undefined && overrides.state !== undefined && this.chain.commonAt(block.header).gteHardfork(Hardfork.Byzantium)) {
      const lease = await this.lease(block);
      if (!movesPrecompiles(overrides.state, lease.vm.evm.precompiles)) return this.withOverrides(lease, overrides.state);
      lease.release();
    }
    const vm = overrides.vm ?? (await this.watched(createChainVM(this.chain, this.chain.commonAt(block.header), await this.chain.state.scratch(this.chain.stateRootOf(block)))));
    if (overrides.state !== undefined) {
      const precompiles = new Map(vm.evm.precompiles);
      await applyStateOverrides(vm.stateManager, overrides.state, precompiles);
      usePrecompiles(vm, precompiles);
    }
    return { vm, release: () => {}, discard: () => {} };
  }

  /** `lease` with `state` applied in a checkpoint of its own, reverted when the lease is given back. */
  private async withOverrides(lease: VmLease, state: StateOverride): Promise<VmLease> {
    const manager = lease.vm.stateManager;
    await manager.checkpoint();
    const giveBack = () => void manager.revert().then(lease.release, lease.discard);
    try {
      await applyStateOverrides(manager, state);
    } catch (error) {
      giveBack();
      throw error;
    }
    return { vm: lease.vm, release: giveBack, discard: lease.discard };
  }

  /** As geth does, an unpriced call runs with a zero base fee so it needs no funds for gas. */
  private contextOf(block: Block, priced: boolean, vm: VM): Block {
    const key = `${bytesToHex(block.hash())}:${priced}`;
    let context = this.contexts.get(key);
    if (context === undefined) {
      context = createBlock(
        { header: { ...block.header.toJSON(), baseFeePerGas: block.header.baseFeePerGas === undefined ? undefined : priced ? block.header.baseFeePerGas : 0n } },
        { common: vm.common, setHardfork: false, skipConsensusFormatValidation: true },
      );
      if (this.contexts.size >= CACHE_LIMITS.callContexts) this.contexts.delete(this.contexts.keys().next().value as string);
      this.contexts.set(key, context);
    }
    return context;
  }

  private transaction(request: TransactionCall, vm: VM, from: Address, nonce: bigint, gasLimit: bigint): TypedTransaction {
    const data = (request.input ?? request.data ?? '0x') as PrefixedHexString;
    const common = vm.common;
    const setCode = isSetCode(request, common);
    const dynamic = isDynamic(request, common);
    const txData: TypedTxData = {
      type: setCode ? 4 : dynamic ? 2 : request.accessList !== undefined && common.isActivatedEIP(2930) ? 1 : 0,
      nonce,
      gasLimit,
      to: request.to === undefined || request.to === null ? undefined : (request.to as PrefixedHexString),
      value: big(request.value) ?? 0n,
      data: hexToBytes(data),
      gasPrice: dynamic ? undefined : (big(request.gasPrice) ?? 0n),
      maxFeePerGas: dynamic ? (big(request.maxFeePerGas) ?? 0n) : undefined,
      maxPriorityFeePerGas: dynamic ? (big(request.maxPriorityFeePerGas) ?? 0n) : undefined,
      accessList: request.accessList?.map((entry) => ({ address: entry.address as PrefixedHexString, storageKeys: entry.storageKeys as PrefixedHexString[] })),
      authorizationList: setCode ? request.authorizationList : undefined,
    } as TypedTxData;
    const tx = createTx(txData, { common, freeze: false });
    // A call has no signature; the VM asks the transaction for its sender, so tell it.
    tx.getSenderAddress = () => from;
    return tx;
  }
}
