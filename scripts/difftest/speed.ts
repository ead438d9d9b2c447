// The engines' speed side by side: the same operations through the edited packages and the pristine ones, in
// alternating rounds in one process, CPU time per operation. What an edit to patches/ saves, without the node,
// the transport or the machine's other work in the figure (both engines share whatever the machine does).
// `npm run difftest -- --speed [--rounds 5] [--op NAME]`.
import type { PrefixedHexString } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import systemContracts from '../../src/chain/system-contracts.json' with { type: 'json' };
import { encodeBalanceOf, encodeConstructor, encodeTransfer } from '../bench/token.js';
import { devCommon } from './case.js';
import { engines, type Engine, type VM } from './engine.js';
import { SENDERS, Signer } from './signer.js';

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
const FEES = { type: 2, maxFeePerGas: 2n * 10n ** 9n, maxPriorityFeePerGas: 1n };
const TOKEN = `0x${'70'.repeat(20)}` as PrefixedHexString;

interface Bench {
  vm: VM;
  state: { checkpoint(): Promise<void>; revert(): Promise<void> };
  block: unknown;
  e: Engine;
}

/** A VM over a cached trie state holding the dev senders, the benchmark token (each sender holding tokens) and the system contracts. */
async function setUp(e: Engine): Promise<Bench> {
  const common = devCommon(e);
  const state = new e.statemanager.MerkleStateManager({ common, caches: new e.statemanager.Caches() });
  for (const s of SENDERS) await state.putAccount(e.util.createAddressFromString(s.address), new e.util.Account(0n, 10n ** 24n));
  const vm = await e.vm.createVM({ common, stateManager: state });
  const block = e.block.createBlock({ header: { number: 1n, timestamp: 1_700_000_000n, gasLimit: 30_000_000n, baseFeePerGas: 10n ** 9n, excessBlobGas: 0n, blobGasUsed: 0n, parentBeaconBlockRoot: new Uint8Array(32) } }, { common });
  // The token at a fixed address: the runtime code its constructor returns.
  const deployed = await vm.evm.runCall({ caller: e.util.createAddressFromString(`0x${'de'.repeat(20)}`), data: bytes(encodeConstructor(10n ** 27n)), gasLimit: 5_000_000n, block: block as never });
  const token = e.util.createAddressFromString(TOKEN);
  await state.putAccount(token, new e.util.Account());
  await state.putCode(token, deployed.execResult.returnValue);
  // Every sender holds tokens (balanceOf is slot 0's mapping: keccak(holder . 0)).
  for (const s of SENDERS) {
    const key = keccak256(bytes(`${s.address.slice(2).toLowerCase().padStart(64, '0')}${'0'.repeat(64)}`));
    await state.putStorage(token, key, e.util.bigIntToBytes(10n ** 24n));
  }
  // The forks' system contracts, their queues idle, as the dev chain's genesis holds them: what a block's system calls run.
  for (const [at, contract] of Object.entries(systemContracts)) {
    const address = e.util.createAddressFromString(at);
    await state.putAccount(address, new e.util.Account(BigInt(contract.nonce)));
    await state.putCode(address, bytes(contract.code));
  }
  await state.getStateRoot();
  // As the node runs them: over a state whose writes stay in memory (a block's, flushed once; a call's, thrown away).
  await state.checkpoint();
  return { vm, block, e, state };
}

type Op = (b: Bench, i: number) => Promise<unknown>;

function ops(signer: Signer): Record<string, { count: number; make: () => Op }> {
  return {
    'eth_call balanceOf (runCall)': {
      count: 3000,
      make: () => async (b, i) => {
        const caller = b.e.util.createAddressFromString(SENDERS[i % SENDERS.length]!.address);
        await b.state.checkpoint();
        await b.vm.evm.runCall({ caller, origin: caller, to: b.e.util.createAddressFromString(TOKEN), data: bytes(encodeBalanceOf(SENDERS[(i + 1) % SENDERS.length]!.address)), gasLimit: 100_000n, block: b.block as never, skipNonceIncrement: true } as never);
        await b.vm.evm.journal.cleanup();
        await b.state.revert();
      },
    },
    'ERC-20 transfer (runTx)': {
      count: 1500,
      make: () => {
        signer.reset();
        return runTxOf(Array.from({ length: 1500 }, (_, i) => signer.sign(i % SENDERS.length, { ...FEES, to: TOKEN, data: bytes(encodeTransfer(SENDERS[(i + 1) % SENDERS.length]!.address, 1n)), gasLimit: 100_000n })));
      },
    },
    'ETH transfer (runTx)': {
      count: 1500,
      make: () => runTxOf(ethTransfers(signer, 1500)),
    },
    'block of one ETH transfer (buildBlock, addTransaction, build)': {
      count: 500,
      make: () => {
        const raws = ethTransfers(signer, 500);
        return async (b, i) => {
          const headerData = { number: 2n + BigInt(i), timestamp: 1_700_000_012n + 12n * BigInt(i), coinbase: `0x${'c0'.repeat(20)}`, gasLimit: 30_000_000n, parentBeaconBlockRoot: new Uint8Array(32) };
          const builder = await b.e.vm.buildBlock(b.vm, { parentBlock: b.block as never, headerData: headerData as never, withdrawals: [], blockOpts: { putBlockIntoBlockchain: false } });
          await builder.addTransaction(b.e.tx.createTxFromRLP(raws[i]!, { common: b.vm.common as never }) as never);
          await builder.build();
        };
      },
    },
  };
}

/** Runs the `i`th of `raws` by runTx on the bench's VM and block. */
function runTxOf(raws: Uint8Array[]): Op {
  return async (b, i) => {
    const tx = b.e.tx.createTxFromRLP(raws[i]!, { common: b.vm.common as never });
    await b.e.vm.runTx(b.vm, { tx, block: b.block as never, skipHardForkValidation: true } as never);
  };
}

/** `count` ETH transfers among the senders, signed from nonce 0. */
function ethTransfers(signer: Signer, count: number): Uint8Array[] {
  signer.reset();
  return Array.from({ length: count }, (_, i) => signer.sign(i % SENDERS.length, { ...FEES, to: SENDERS[(i + 1) % SENDERS.length]!.address, value: 1n, gasLimit: 21_000n }));
}

async function time(b: Bench, op: Op, count: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await op(b, i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

export interface SpeedRow {
  op: string;
  edited: number[];
  pristine: number[];
}

/** µs of CPU per operation, per round, on each engine (rounds alternate which engine goes first); the operations whose name holds `only`, if given. */
export async function speed(rounds: number, only = ''): Promise<SpeedRow[]> {
  const both = await engines();
  const signer = new Signer(both.edited);
  const rows: SpeedRow[] = [];
  for (const [name, { count, make }] of Object.entries(ops(signer))) {
    if (!name.includes(only)) continue;
    const row: SpeedRow = { op: name, edited: [], pristine: [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['edited', 'pristine'] as const) : (['pristine', 'edited'] as const);
      for (const side of order) {
        const bench = await setUp(both[side]);
        const op = make();
        row[side].push(await time(bench, op, count));
      }
    }
    rows.push(row);
  }
  return rows;
}
