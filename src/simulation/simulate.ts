// eth_simulateV1 as geth simulates (internal/ethapi/simulate.go): blocks built on a base block, each
// with its block and state overrides, its calls run in order as unsigned transactions, and the block
// assembled as the chain would hold it (roots, receipts, requests, hash). Everything runs on a private
// copy of the base block's state; nothing reaches the chain.
import { createBlock, type Block, type HeaderData } from '@ethereumjs/block';
import { Common, Hardfork } from '@ethereumjs/common';
import { Account, bytesToHex, createAddressFromString, createZeroAddress, toChecksumAddress, type Address, type PrefixedHexString } from '@ethereumjs/util';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import type { Log, SimulateBlock, SimulateCallResult, SimulatePayload, TransactionCall } from '../../generated/types.js';
import { toHex } from '../codec/hex.js';
import { AnswerBudget, DEFAULT_MAX_ANSWER_BYTES } from '../format/answer-budget.js';
import { baseFeeAfter } from '../fees/fees.js';
import { asContractSender } from '../state/contract-sender.js';
import { applyStateOverrides, overrideBlobBaseFee, usePrecompiles } from '../state/overrides.js';
import { revertReason } from '../state/revert.js';
import type { StateStore } from '../state/state-store.js';
import { createChainVM, loadVmLibrary, type BlockHistory } from '../state/vm.js';
import { watchRunOn } from '../state/fork-aware-state.js';
import { callRequest } from '../state/run-request.js';
import { observe } from '../tracing/evm-hooks.js';
import { CallLogs } from './call-logs.js';
import { callTransaction, type CallTransaction } from './call-transaction.js';
import { SimulationError, type SimulationErrorKind } from './errors.js';

/** geth's limits on one request. */
const MAX_BLOCKS = 256n;
const MAX_CALLS_PER_BLOCK = 5000;
const MAX_CALLS = 10000;
/** The time a block without a time override comes after its parent. */
const BLOCK_SECONDS = 12n;
/** geth's default RPC gas cap: what all of a simulation's calls may use together. */
export const SIMULATION_GAS_CAP = 50_000_000n;
const GAS_PER_BLOB = 131_072n;
/** The codes a call's own failure carries in its result (execution-apis): a revert's, and any other halt's. */
const REVERTED = 3;
const VM_ERROR = -32015;
/** EIP-2681: a nonce never reaches 2^64-1. */
const MAX_NONCE = (1n << 64n) - 1n;
/**
 * At most what a simulated block's JSON holds beside its calls' return data and logs (the header,
 * a transaction's hash or object beside its input), and a log beside its data, in bytes.
 */
const BLOCK_BYTES = 1_500;
const TRANSACTION_BYTES = 1_200;
const LOG_BYTES = 450;

/** What a simulation reads of the chain. */
export interface SimulationChain extends BlockHistory {
  commonAt(header: { number: bigint; timestamp: bigint }): Common;
  /** The state a block's successor builds on: its own root, or the root of edits made on it. */
  stateRootOf(block: Block): Uint8Array;
  readonly state: StateStore;
}

/** A simulated block and what its calls did; `senders` are the calls' senders, which unsigned transactions do not carry. */
export interface SimulatedResult {
  block: Block;
  calls: SimulateCallResult[];
  senders: Address[];
}

/** What a block takes from the one before it unless overridden. */
interface Inherited {
  coinbase: string;
  difficulty: bigint;
  gasLimit: bigint;
}

interface PlannedBlock {
  number: bigint;
  timestamp: bigint;
  overrides: NonNullable<SimulateBlock['blockOverrides']>;
  stateOverrides?: SimulateBlock['stateOverrides'];
  calls: TransactionCall[];
}

const big = (hex: string | undefined) => (hex === undefined ? undefined : BigInt(hex));
const checksum = (address: Address) => toChecksumAddress(address.toString());

/**
 * The Common a simulated block runs with: its fork's, except that a call may carry more gas than
 * EIP-7825 lets one transaction carry — geth's calls skip that check, so here its cap is off. (As
 * an own member it survives the copies every header, transaction and VM makes of the Common.)
 */
function uncapped(common: Common): Common {
  const copy = common.copy();
  Object.defineProperty(copy, 'isActivatedEIP', {
    value(this: Common, eip: number) {
      return eip !== 7825 && Common.prototype.isActivatedEIP.call(this, eip);
    },
    enumerable: true,
    writable: true,
  });
  return copy;
}

/** The budget of gas all calls share (geth's gasBudget). */
class GasBudget {
  constructor(private remaining: bigint) {}
  cap(gas: bigint): bigint {
    return gas < this.remaining ? gas : this.remaining;
  }
  consume(gas: bigint): void {
    if (gas > this.remaining) throw new SimulationError('unclassified', `RPC gas cap exhausted: need ${gas}, remaining ${this.remaining}`);
    this.remaining -= gas;
  }
}

/**
 * The EVM finds past blocks through this: the chain's up to the base block, the simulated ones
 * after it (BLOCKHASH sees the simulated chain).
 */
class SimulatedHistory implements BlockHistory {
  readonly blocks = new Map<bigint, Block>();
  constructor(
    private readonly chain: BlockHistory,
    private readonly base: Block,
  ) {}
  async blockByNumber(number: bigint): Promise<Block | undefined> {
    if (number === this.base.header.number) return this.base;
    return number < this.base.header.number ? this.chain.blockByNumber(number) : this.blocks.get(number);
  }
}

export class Simulator {
  /** `maxAnswerBytes`: the JSON the answer may hold, counted as calls return (--max-response-bytes). */
  constructor(
    private readonly chain: SimulationChain,
    private readonly maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES,
    private readonly gasCap = SIMULATION_GAS_CAP,
  ) {}

  async simulate(payload: SimulatePayload, base: Block): Promise<SimulatedResult[]> {
    const requested = payload.blockStateCalls;
    if (requested.length === 0) throw new SimulationError('invalid-params', 'empty input');
    if (BigInt(requested.length) > MAX_BLOCKS) throw new SimulationError('client-limit-exceeded', 'too many blocks');
    let total = 0;
    for (const block of requested) {
      const calls = block.calls?.length ?? 0;
      if (calls > MAX_CALLS_PER_BLOCK) throw new SimulationError('client-limit-exceeded', `too many calls in block: ${calls} > ${MAX_CALLS_PER_BLOCK}`);
      total += calls;
      if (total > MAX_CALLS) throw new SimulationError('client-limit-exceeded', `too many calls: ${total} > ${MAX_CALLS}`);
    }
    const planned = plan(requested, base);
    // Simulated blocks commit and compute state roots: their trie nodes stay in this state's memory.
    const state = await this.chain.state.ephemeral(this.chain.stateRootOf(base));
    const history = new SimulatedHistory(this.chain, base);
    const budget = new GasBudget(this.gasCap);
    const size = new AnswerBudget(this.maxAnswerBytes, 'the simulation', 'simulate fewer calls, or calls that return and log less');
    const results: SimulatedResult[] = [];
    let parent = base;
    // Header members a block without overrides takes from the one before it (geth's makeHeaders).
    let inherited: Inherited = { coinbase: base.header.coinbase.toString(), difficulty: base.header.difficulty, gasLimit: base.header.gasLimit };
    for (const block of planned) {
      const common = uncapped(this.chain.commonAt({ number: block.number, timestamp: block.timestamp }));
      const o = block.overrides;
      const postMerge = common.gteHardfork(Hardfork.Paris);
      inherited = {
        coinbase: o.feeRecipient ?? inherited.coinbase,
        difficulty: big(o.difficulty) ?? (postMerge ? 0n : inherited.difficulty),
        gasLimit: big(o.gasLimit) ?? inherited.gasLimit,
      };
      const vm = await createChainVM(history, common, state);
      const result = await this.simulateBlock(vm, block, parent, inherited, payload, budget, size);
      history.blocks.set(block.number, result.block);
      results.push(result);
      parent = result.block;
    }
    return results;
  }

  private async simulateBlock(
    vm: VM,
    block: PlannedBlock,
    parent: Block,
    inherited: Inherited,
    payload: SimulatePayload,
    budget: GasBudget,
    size: AnswerBudget,
  ): Promise<SimulatedResult> {
    size.add(BLOCK_BYTES);
    const common = vm.common;
    const validate = payload.validation === true;
    const o = block.overrides;
    // Without validation an unset base fee is zero, so calls need pay nothing (geth's choice).
    const baseFee = common.isActivatedEIP(1559) ? (big(o.baseFeePerGas) ?? (validate ? baseFeeAfter(parent.header, common) : 0n)) : undefined;
    const cancun = common.isActivatedEIP(4844);
    const parentCancun = this.chain.commonAt(parent.header).isActivatedEIP(4844);
    const headerData: HeaderData = {
      parentHash: parent.hash(),
      number: block.number,
      timestamp: block.timestamp,
      coinbase: inherited.coinbase as PrefixedHexString,
      difficulty: inherited.difficulty,
      gasLimit: inherited.gasLimit,
      mixHash: (o.prevRandao as PrefixedHexString | undefined) ?? new Uint8Array(32),
      extraData: new Uint8Array(),
      baseFeePerGas: baseFee,
      excessBlobGas: cancun ? (parentCancun ? parent.header.calcNextExcessBlobGas(common) : 0n) : undefined,
      parentBeaconBlockRoot: cancun ? ((o.beaconRoot as PrefixedHexString | undefined) ?? new Uint8Array(32)) : undefined,
    };
    const withdrawals = common.isActivatedEIP(4895)
      ? (o.withdrawals ?? []).map((w) => ({ index: BigInt(w.index), validatorIndex: BigInt(w.validatorIndex), address: w.address as PrefixedHexString, amount: BigInt(w.amount) }))
      : undefined;

    if (block.stateOverrides !== undefined) {
      const precompiles = new Map(vm.evm.precompiles);
      await applyStateOverrides(vm.stateManager, block.stateOverrides, precompiles);
      usePrecompiles(vm, precompiles);
      // Into the trie now: the builder computes its state root inside a checkpoint of its own, and
      // writes made before it would stay in the state's cache, out of the root.
      await vm.stateManager.getStateRoot();
    }
    // The builder applies the block's system calls (beacon root, parent hash) as it starts.
    const { buildBlock, runTx } = await loadVmLibrary();
    const builder = await buildBlock(vm, {
      parentBlock: parent,
      headerData,
      withdrawals,
      blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true },
    });
    const context = createBlock({ header: headerData }, { common, setHardfork: false, skipConsensusFormatValidation: true, freeze: false });
    if (o.blobBaseFee !== undefined) overrideBlobBaseFee(context, BigInt(o.blobBaseFee));
    const logs = new CallLogs({ number: block.number, timestamp: block.timestamp }, payload.traceTransfers === true);
    const calls: SimulateCallResult[] = [];
    const senders: Address[] = [];
    for (const [index, call] of block.calls.entries()) {
      const from = call.from === undefined ? createZeroAddress() : createAddressFromString(call.from);
      const account = (await vm.stateManager.getAccount(from)) ?? new Account();
      const remaining = inherited.gasLimit - builder.gasUsed;
      const requestedGas = big(call.gas) ?? remaining;
      if (remaining < requestedGas) throw new SimulationError('block-gas-limit-reached', `block gas limit reached: remaining: ${remaining}, required: ${requestedGas}`);
      const gas = budget.cap(requestedGas);
      const nonce = big(call.nonce) ?? account.nonce;
      // geth lets a nonce of 2^64-1 wrap to 0 without validation; EIP-2681 forbids it, and so does the library.
      if (nonce === MAX_NONCE || account.nonce === MAX_NONCE) {
        throw new SimulationError('unclassified', `err: nonce has max value: address ${checksum(from)}, nonce: ${account.nonce} (supplied gas ${gas})`);
      }
      const prepared = callTransaction(call, from, nonce, gas, baseFee, common);
      const free = !validate && prepared.feeCap === 0n && prepared.tipCap === 0n;
      await admissible(prepared, account, { validate, free, baseFee, blobBaseFee: cancun ? context.header.getBlobGasPrice() : 0n, common });
      logs.reset(prepared.hash, index);
      let topError: string | undefined;
      const hooks = {
        ...logs.hooks,
        onExit: (end: Parameters<NonNullable<typeof logs.hooks.onExit>>[0]) => {
          logs.hooks.onExit!(end);
          if (end.depth === 0) topError = end.error;
        },
      };
      // geth runs a call that pays nothing without a base fee (NoBaseFee): it owes none.
      const runIn = free && (baseFee ?? 0n) > 0n ? zeroBaseFee(context, common) : context;
      const stop = observe(vm, hooks);
      // On a fork, a call that waits for the remote again and again has the rest fetched at once.
      watchRunOn(vm.stateManager, callRequest(call));
      let run: RunTxResult;
      try {
        run = await asContractSender(vm, from, () =>
          runTx(vm, { tx: prepared.tx, block: runIn, skipNonce: !validate, skipBlockGasLimitValidation: true, skipHardForkValidation: true, blockGasUsed: builder.gasUsed }),
        );
      } catch (error) {
        throw new SimulationError('unclassified', `err: ${(error as Error).message.replace(/ \(vm hf=.*$/s, '').replace(/ -> .*$/s, '')} (supplied gas ${gas})`);
      } finally {
        stop();
        watchRunOn(vm.stateManager, undefined);
      }
      // The builder did not run it (it takes none of these options): the run joins its block's roots, receipts, bloom and gas.
      builder.addTransactionResult(prepared.tx, run);
      budget.consume(run.totalGasSpent);
      senders.push(from);
      const result = callResult(run, prepared, logs.logs(), topError, gas < requestedGas);
      // Counted as each call returns, so an answer past the limit stops the simulation there.
      size.add(TRANSACTION_BYTES + 2 * prepared.tx.data.length + result.returnData.length + (result.error?.data?.length ?? 0));
      for (const log of result.logs) size.add(LOG_BYTES + log.data.length);
      size.check();
      calls.push(result);
    }
    const { block: built } = await builder.build();
    const hash = bytesToHex(built.hash());
    for (const result of calls) for (const log of result.logs) log.blockHash = hash;
    return { block: built, calls, senders };
  }
}

/** geth's sanitizeChain: numbers and times in order, gaps filled with empty blocks 12 s apart, times defaulted. */
function plan(requested: SimulateBlock[], base: Block): PlannedBlock[] {
  const planned: PlannedBlock[] = [];
  let previousNumber = base.header.number;
  let previousTime = base.header.timestamp;
  for (const block of requested) {
    const overrides = { ...block.blockOverrides };
    const number = big(overrides.number) ?? previousNumber + 1n;
    if (number <= previousNumber) throw new SimulationError('block-number-invalid', `block numbers must be in order: ${number} <= ${previousNumber}`);
    if (number - base.header.number > MAX_BLOCKS) throw new SimulationError('client-limit-exceeded', 'too many blocks');
    for (let gap = previousNumber + 1n; gap < number; gap++) {
      previousTime += BLOCK_SECONDS;
      planned.push({ number: gap, timestamp: previousTime, overrides: {}, calls: [] });
    }
    previousNumber = number;
    const timestamp = big(overrides.time) ?? previousTime + BLOCK_SECONDS;
    if (overrides.time !== undefined && timestamp <= previousTime) throw new SimulationError('block-timestamp-invalid', `block timestamps must be in order: ${timestamp} <= ${previousTime}`);
    previousTime = timestamp;
    planned.push({ number, timestamp, overrides, stateOverrides: block.stateOverrides, calls: block.calls ?? [] });
  }
  return planned;
}

/** A copy of `context` with no base fee, for a call that pays nothing. */
function zeroBaseFee(context: Block, common: Common): Block {
  const copy = createBlock({ header: { ...context.header.toJSON(), baseFeePerGas: 0n } }, { common, setHardfork: false, skipConsensusFormatValidation: true, freeze: false });
  if (Object.hasOwn(context.header, 'getBlobGasPrice')) overrideBlobBaseFee(copy, context.header.getBlobGasPrice());
  return copy;
}

interface Admission {
  validate: boolean;
  /** runs without a base fee (no validation, no fees named): geth skips the fee checks */
  free: boolean;
  baseFee: bigint | undefined;
  blobBaseFee: bigint;
  common: Common;
}

/**
 * geth's checks before a transaction runs (preCheck, buyGas, and execute's gas and transfer checks),
 * in its order and words, each with its execution-apis code: a call that fails one fails the whole
 * simulation.
 */
async function admissible(call: CallTransaction, account: Account, { validate, free, baseFee, blobBaseFee, common }: Admission): Promise<void> {
  const fail = (kind: SimulationErrorKind, message: string): never => {
    throw new SimulationError(kind, `err: ${message} (supplied gas ${call.gasLimit})`);
  };
  const from = checksum(call.from);
  const tx = call.tx;
  if (validate) {
    if (account.nonce < tx.nonce) fail('nonce-too-high', `nonce too high: address ${from}, tx: ${tx.nonce} state: ${account.nonce}`);
    if (account.nonce > tx.nonce) fail('nonce-too-low', `nonce too low: address ${from}, tx: ${tx.nonce} state: ${account.nonce}`);
  }
  if (baseFee !== undefined && !free) {
    if (call.feeCap < call.tipCap) fail('invalid-params', `max priority fee per gas higher than max fee per gas: address ${from}, maxPriorityFeePerGas: ${call.tipCap}, maxFeePerGas: ${call.feeCap}`);
    if (call.feeCap < baseFee) fail('base-fee-too-low', `max fee per gas less than block base fee: address ${from}, maxFeePerGas: ${call.feeCap}, baseFee: ${baseFee}`);
  }
  const blobGas = BigInt(call.blobHashes.length) * GAS_PER_BLOB;
  if (blobGas > 0n && !(!validate && call.blobFeeCap === 0n) && call.blobFeeCap < blobBaseFee) {
    fail('unclassified', `max fee per blob gas less than block blob gas fee: address ${from} blobGasFeeCap: ${call.blobFeeCap}, blobBaseFee: ${blobBaseFee}`);
  }
  if (tx.to === undefined && common.isActivatedEIP(3860)) {
    const limit = common.param('maxInitCodeSize');
    if (BigInt(tx.data.length) > limit) fail('max-init-code-size-exceeded', `max initcode size exceeded: code size ${tx.data.length}, limit ${limit}`);
  }
  const want = call.gasLimit * call.feeCap + call.value + blobGas * call.blobFeeCap;
  if (want >= 1n << 256n) fail('insufficient-funds', `insufficient funds for gas * price + value: address ${from} required balance exceeds 256 bits`);
  if (account.balance < want) fail('insufficient-funds', `insufficient funds for gas * price + value: address ${from} have ${account.balance} want ${want}`);
  const intrinsic = tx.getIntrinsicGas();
  if (call.gasLimit < intrinsic) fail('intrinsic-gas', `intrinsic gas too low: have ${call.gasLimit}, want ${intrinsic}`);
  if (common.isActivatedEIP(7623)) {
    const floor = floorDataGas(tx.data, common);
    if (call.gasLimit < floor) fail('unclassified', `insufficient gas for floor data gas cost: have ${call.gasLimit}, want ${floor}`);
  }
  if (call.value > 0n && account.balance - call.gasLimit * call.gasPrice < call.value) fail('insufficient-funds', `insufficient funds for transfer: address ${from}`);
}

/** EIP-7623: the least a transaction with this call data pays. */
function floorDataGas(data: Uint8Array, common: Common): bigint {
  let tokens = 0n;
  for (const byte of data) tokens += byte === 0 ? 1n : 4n;
  return common.param('txGas') + tokens * common.param('totalCostFloorPerToken');
}

/** What a call did, as eth_simulateV1 answers it. */
function callResult(run: RunTxResult, call: CallTransaction, logs: Log[], error: string | undefined, capped: boolean): SimulateCallResult {
  const exec = run.execResult;
  const failed = exec.exceptionError !== undefined;
  // geth's MaxUsedGas: the gas used before refunds (at least the EIP-7623 floor).
  const beforeRefunds = call.tx.getIntrinsicGas() + exec.executionGasUsed;
  const peak = beforeRefunds > run.totalGasSpent ? beforeRefunds : run.totalGasSpent;
  const result: SimulateCallResult = {
    // A failed call returns nothing (a revert's data goes with its error).
    returnData: failed ? '0x' : toHex(exec.returnValue),
    logs,
    gasUsed: `0x${run.totalGasSpent.toString(16)}`,
    maxUsedGas: `0x${peak.toString(16)}`,
    status: failed ? '0x0' : '0x1',
  };
  if (!failed) return result;
  if (exec.exceptionError!.error === 'revert') {
    const reason = revertReason(exec.returnValue);
    result.error = { message: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, code: REVERTED, data: toHex(exec.returnValue) };
  } else {
    result.error = { message: `${error ?? exec.exceptionError!.error}${capped ? " (gas limit was capped by the RPC server's global gas cap)" : ''}`, code: VM_ERROR };
  }
  return result;
}
