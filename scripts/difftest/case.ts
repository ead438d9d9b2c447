// One case of the differential test: a world of accounts, a block, and the transactions and calls run on it,
// in order. Each engine runs it on a fresh state of its own; what it answers is plain JSON (outcome.ts).
import type { PrefixedHexString } from '@ethereumjs/util';
import { createHash } from 'node:crypto';
import { CRYPTO, withLibraryParams, type Common, type Engine, type MerkleStateManager, type VM } from './engine.js';
import { callOutcome, hex, thrown, txOutcome, type Outcome } from './outcome.js';
import { listen, type Trace } from './trace.js';

export interface AccountSpec {
  address: PrefixedHexString;
  balance?: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  /** 32-byte keys, unpadded values */
  storage?: [Uint8Array, Uint8Array][];
}

/** The block the steps run in (the fields the EVM reads). */
export interface BlockEnv {
  number: bigint;
  timestamp: bigint;
  coinbase: PrefixedHexString;
  gasLimit: bigint;
  baseFeePerGas: bigint;
  prevRandao: Uint8Array;
  excessBlobGas: bigint;
}

export type Step =
  /** a signed transaction, run by runTx */
  | { kind: 'tx'; raw: Uint8Array }
  /** a message, run by the EVM's runCall (no transaction around it: no intrinsic gas, nonce or fee) */
  | { kind: 'call'; caller: PrefixedHexString; to?: PrefixedHexString; data: Uint8Array; value: bigint; gasLimit: bigint };

export interface Case {
  name: string;
  accounts: AccountSpec[];
  block: BlockEnv;
  steps: Step[];
  /** compare the EVM's step events and each message's end too */
  trace: boolean;
  /** the chain's id (31337 unless given) */
  chainId?: bigint;
  /** run the transactions (not the messages) as one block built on `block`, system calls and state root included */
  asBlock?: boolean;
}

/** What one engine answered for a case: an outcome per step (state root included), and the trace. */
export interface CaseRun {
  outcomes: Outcome[];
  trace?: Trace;
  /** the engine's state after the run, for a diff when the runs differ */
  state: MerkleStateManager;
  common: Common;
}

const devCommons = new WeakMap<Engine, Map<bigint, Common>>();

/** The dev chain's Common (chain id 31337 unless given, Osaka), with every library's parameters, as the node makes it: a copy of one made once. */
export function devCommon(e: Engine, chainId = 31337n): Common {
  let byChain = devCommons.get(e);
  if (byChain === undefined) devCommons.set(e, (byChain = new Map()));
  let common = byChain.get(chainId);
  if (common === undefined) {
    common = withLibraryParams(e, e.common.createCustomCommon({ chainId: Number(chainId) }, e.common.Mainnet, { hardfork: e.common.Hardfork.Osaka, customCrypto: CRYPTO }));
    byChain.set(chainId, common);
  }
  return common.copy();
}

/** BLOCKHASH's answers: the same made-up hash of each number on both sides. */
function history() {
  const view = {
    getBlock: async (number: number) => ({ hash: () => Uint8Array.from(createHash('sha256').update(`block ${number}`).digest()) }),
    putBlock: async () => {},
    shallowCopy: () => view,
  };
  return view as never;
}

export async function world(e: Engine, common: Common, accounts: readonly AccountSpec[]): Promise<MerkleStateManager> {
  const state = new e.statemanager.MerkleStateManager({ common });
  for (const spec of accounts) {
    const address = e.util.createAddressFromString(spec.address);
    await state.putAccount(address, new e.util.Account(spec.nonce ?? 0n, spec.balance ?? 0n));
    if (spec.code !== undefined && spec.code.length > 0) await state.putCode(address, spec.code);
    for (const [key, value] of spec.storage ?? []) await state.putStorage(address, key, value);
  }
  await state.getStateRoot();
  return state;
}

/** Makes the state a case runs on: {@link world} unless a spec wants another (reads that wait, say). */
export type MakeState = (e: Engine, common: Common, accounts: readonly AccountSpec[]) => Promise<MerkleStateManager>;

export async function runCase(e: Engine, c: Case, makeState: MakeState = world): Promise<CaseRun> {
  const common = devCommon(e, c.chainId);
  const state = await makeState(e, common, c.accounts);
  const vm: VM = await e.vm.createVM({ common, stateManager: state, blockchain: history() });
  const { block: env } = c;
  const block = e.block.createBlock(
    {
      header: {
        number: env.number,
        timestamp: env.timestamp,
        coinbase: env.coinbase,
        gasLimit: env.gasLimit,
        baseFeePerGas: env.baseFeePerGas,
        mixHash: env.prevRandao,
        excessBlobGas: env.excessBlobGas,
        blobGasUsed: 0n,
        parentBeaconBlockRoot: new Uint8Array(32),
      },
    },
    { common },
  );
  const trace = c.trace ? listen(vm) : undefined;
  const outcomes = c.asBlock === true ? await blockOutcomes(e, vm, c) : [];
  for (const step of c.asBlock === true ? [] : c.steps) {
    let outcome: Outcome;
    try {
      if (step.kind === 'tx') {
        const tx = e.tx.createTxFromRLP(step.raw, { common });
        outcome = txOutcome(await e.vm.runTx(vm, { tx, block }));
      } else {
        const result = await vm.evm.runCall({
          caller: e.util.createAddressFromString(step.caller),
          to: step.to === undefined ? undefined : e.util.createAddressFromString(step.to),
          data: step.data,
          value: step.value,
          gasLimit: step.gasLimit,
          origin: e.util.createAddressFromString(step.caller),
          block,
        });
        // The accounts the message touched and left empty go (EIP-161), as runTx has them go: awaited, or the
        // next step raced the deletions (a case whose state manager then hung, on both engines alike).
        await vm.evm.journal.cleanup();
        outcome = callOutcome(result);
      }
    } catch (error) {
      outcome = thrown(error);
    }
    outcome.stateRoot = hex(await state.getStateRoot());
    outcomes.push(outcome);
  }
  trace?.stop();
  return { outcomes, trace: trace?.trace, state, common };
}

/**
 * A block case's outcomes: each transaction's as the block builder adds it (the system writes of EIP-4788 and 2935
 * before the first), then the block's — its requests (the EIP-7002 and 7251 system calls) and its header's roots,
 * bloom and gas. A parent of the block's fork precedes it.
 */
async function blockOutcomes(e: Engine, vm: VM, c: Case): Promise<Outcome[]> {
  const { block: env } = c;
  const common = vm.common;
  const parentBlock = e.block.createBlock(
    { header: { number: env.number - 1n, timestamp: env.timestamp - 12n, gasLimit: env.gasLimit, baseFeePerGas: env.baseFeePerGas, excessBlobGas: 0n, blobGasUsed: 0n, parentBeaconBlockRoot: new Uint8Array(32) } },
    { common },
  );
  const outcomes: Outcome[] = [];
  try {
    const builder = await e.vm.buildBlock(vm, {
      parentBlock,
      headerData: { number: env.number, timestamp: env.timestamp, coinbase: env.coinbase, gasLimit: env.gasLimit, baseFeePerGas: env.baseFeePerGas, mixHash: env.prevRandao, excessBlobGas: env.excessBlobGas, parentBeaconBlockRoot: env.prevRandao },
      withdrawals: [],
      blockOpts: { putBlockIntoBlockchain: false },
    });
    for (const step of c.steps) {
      if (step.kind !== 'tx') continue;
      try {
        outcomes.push(txOutcome(await builder.addTransaction(e.tx.createTxFromRLP(step.raw, { common }))));
      } catch (error) {
        outcomes.push(thrown(error));
      }
    }
    const { block, requests } = await builder.build();
    const { header } = block;
    outcomes.push({
      requests: (requests ?? []).map((request) => hex(request.bytes)),
      header: { stateRoot: hex(header.stateRoot), receiptTrie: hex(header.receiptTrie), transactionsTrie: hex(header.transactionsTrie), bloom: hex(header.logsBloom), gasUsed: String(header.gasUsed), requestsHash: hex(header.requestsHash) },
    });
  } catch (error) {
    outcomes.push(thrown(error));
  }
  return outcomes;
}
