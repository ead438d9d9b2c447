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
}

/** What one engine answered for a case: an outcome per step (state root included), and the trace. */
export interface CaseRun {
  outcomes: Outcome[];
  trace?: Trace;
  /** the engine's state after the run, for a diff when the runs differ */
  state: MerkleStateManager;
  common: Common;
}

const devCommons = new WeakMap<Engine, Common>();

/** The dev chain's Common (chain id 31337, Osaka), with every library's parameters, as the node makes it: a copy of one made once. */
export function devCommon(e: Engine): Common {
  let common = devCommons.get(e);
  if (common === undefined) {
    common = withLibraryParams(e, e.common.createCustomCommon({ chainId: 31337 }, e.common.Mainnet, { hardfork: e.common.Hardfork.Osaka, customCrypto: CRYPTO }));
    devCommons.set(e, common);
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
  const common = devCommon(e);
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
  const outcomes: Outcome[] = [];
  for (const step of c.steps) {
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
        vm.evm.journal.cleanup();
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
