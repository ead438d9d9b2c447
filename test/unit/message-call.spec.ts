// eth_call runs an unpriced call as a bare message (src/state/message-call.ts) where the library would run a
// transaction: both must return the same, for the same gas, call after call on one VM. Random programs
// (every opcode, storage and transient storage, logs, calls and creates at every depth, precompiles, gas
// running out anywhere) called from funded, empty and absent senders, at each fork from Berlin on.
import { createBlock, paramsBlock, type Block } from '@ethereumjs/block';
import { createCustomCommon, Hardfork, Mainnet, type Common } from '@ethereumjs/common';
import { paramsEVM, type EVMResult } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { createTx, getCalldataFloorGas, paramsTx } from '@ethereumjs/tx';
import { Account, bytesToHex, createAddressFromString, type Address, type PrefixedHexString } from '@ethereumjs/util';
import { createVM, paramsVM, runTx, type VM } from '@ethereumjs/vm';
import { expect } from 'chai';
import { PRECOMPILES, ProgramGenerator } from '../../scripts/difftest/programs.js';
import { Random } from '../../scripts/difftest/random.js';
import { CRYPTO } from '../../scripts/difftest/engine.js';
import { keccakInWasm } from '../../src/crypto/native.js';
import { messageCallsServe, messageGas, runMessageCall } from '../../src/state/message-call.js';

const at = (n: number): PrefixedHexString => `0x${n.toString(16).padStart(40, '0')}`;
const CONTRACTS = [0xc0de00, 0xc0de01, 0xc0de02, 0xc0de03].map(at);
const DELEGATED = at(0xde1e9a7e);
const FUNDED = [at(0xf00d01), at(0xf00d02)];
const EMPTY = at(0xe0a);
const ABSENT = [at(0xab5e47), at(0xab5e48)];
const FORKS = [Hardfork.Berlin, Hardfork.London, Hardfork.Shanghai, Hardfork.Cancun, Hardfork.Prague, Hardfork.Osaka];

function commonAt(hardfork: Hardfork): Common {
  const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork, customCrypto: CRYPTO });
  for (const params of [paramsBlock, paramsTx, paramsEVM, paramsVM]) common.updateParams(params);
  return common;
}

interface World {
  accounts: { address: PrefixedHexString; balance: bigint; nonce?: bigint; code?: Uint8Array; storage?: [Uint8Array, Uint8Array][] }[];
  coinbase: PrefixedHexString;
}

function randomWorld(random: Random, hardfork: Hardfork): World {
  const programs = new ProgramGenerator(random, { contracts: CONTRACTS, eoas: [EMPTY, ...FUNDED], delegated: [DELEGATED], absent: ABSENT });
  const slot = (key: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? key : 0));
  return {
    accounts: [
      ...FUNDED.map((address) => ({ address, balance: 10n ** 21n })),
      { address: EMPTY, balance: 5n, nonce: 1n },
      ...CONTRACTS.map((address) => ({ address, balance: BigInt(random.int(1000)), code: programs.program(), storage: [0, 1, 2].filter(() => random.chance(0.5)).map((k): [Uint8Array, Uint8Array] => [slot(k), Uint8Array.of(1 + random.int(255))]) })),
      // A delegation designator is code only from Prague on.
      ...(hardfork === Hardfork.Prague || hardfork === Hardfork.Osaka ? [{ address: DELEGATED, balance: 10n ** 18n, code: Uint8Array.from([0xef, 0x01, 0x00, ...Buffer.from(CONTRACTS[0]!.slice(2), 'hex')]) }] : []),
    ],
    coinbase: random.chance(0.3) ? random.pick(CONTRACTS) : at(0xc014ba5e),
  };
}

async function vmOn(common: Common, world: World): Promise<VM> {
  const state = new MerkleStateManager({ common });
  for (const spec of world.accounts) {
    const address = createAddressFromString(spec.address);
    await state.putAccount(address, new Account(spec.nonce ?? 0n, spec.balance));
    if (spec.code !== undefined) await state.putCode(address, spec.code);
    for (const [key, value] of spec.storage ?? []) await state.putStorage(address, key, value);
  }
  await state.getStateRoot();
  return createVM({ common: common.copy(), stateManager: state });
}

/** A call block as eth_call's unpriced calls get it: the base fee zero. */
function callBlock(common: Common, world: World, random: Random): Block {
  const header = { number: 1000n, timestamp: 1_700_000_000n, coinbase: world.coinbase as PrefixedHexString, gasLimit: 30_000_000n, mixHash: random.bytes(32) };
  const london = common.gteHardfork(Hardfork.London) ? { baseFeePerGas: 0n } : {};
  const cancun = common.gteHardfork(Hardfork.Cancun) ? { excessBlobGas: 0n, blobGasUsed: 0n, parentBeaconBlockRoot: new Uint8Array(32) } : {};
  return createBlock({ header: { ...header, ...london, ...cancun } }, { common, setHardfork: false });
}

interface Call {
  from: Address;
  to: Address;
  value: bigint;
  data: Uint8Array;
  gasLimit: bigint;
}

/** What a caller of eth_call sees of a run, and what would show a difference in what ran: its gas and logs. */
function seen(result: EVMResult): unknown {
  const { execResult } = result;
  return {
    returned: bytesToHex(execResult.returnValue),
    error: execResult.exceptionError?.error,
    gasUsed: execResult.executionGasUsed.toString(),
    logs: (execResult.logs ?? []).map(([address, topics, data]) => [bytesToHex(address), topics.map(bytesToHex), bytesToHex(data)]),
  };
}

/** The call as the node ran it before: an unsigned legacy transaction at gas price 0, nonce and balance unchecked. */
async function asTransaction(vm: VM, block: Block, call: Call): Promise<EVMResult> {
  const nonce = (await vm.stateManager.getAccount(call.from))?.nonce ?? 0n;
  const tx = createTx({ type: 0, nonce, gasLimit: call.gasLimit, to: call.to, value: call.value, data: call.data, gasPrice: 0n }, { common: vm.common, freeze: false });
  tx.getSenderAddress = () => call.from;
  return runTx(vm, { tx, block, skipNonce: true, skipBalance: true, skipBlockGasLimitValidation: true, skipHardForkValidation: true });
}

async function reverted<T>(vm: VM, run: () => Promise<T>): Promise<T> {
  await vm.stateManager.checkpoint();
  try {
    return await run();
  } finally {
    await vm.stateManager.revert();
  }
}

describe('eth_call as a bare message', () => {
  before(async () => {
    await keccakInWasm();
  });

  it('is served at every fork from Berlin on, and not before', () => {
    for (const fork of FORKS) expect(messageCallsServe(commonAt(fork)), fork).to.equal(true);
    expect(messageCallsServe(commonAt(Hardfork.Istanbul))).to.equal(false);
  });

  it("costs the gas before the message and needs at least what the library's transaction does", () => {
    const random = new Random(7);
    for (const fork of FORKS) {
      const common = commonAt(fork);
      for (let i = 0; i < 50; i++) {
        const data = random.chance(0.2) ? new Uint8Array(random.int(8)) : random.bytes(random.int(300)).map((b) => (random.chance(0.4) ? 0 : b));
        const tx = createTx({ type: 0, gasLimit: 10_000_000n, to: CONTRACTS[0], data, gasPrice: 0n }, { common, freeze: false });
        const floor = getCalldataFloorGas(tx, createAddressFromString(FUNDED[0]!));
        const intrinsic = tx.getIntrinsicGas();
        expect(messageGas(common, data), `${fork}, ${data.length} bytes`).to.deep.equal({ intrinsic, least: floor > intrinsic ? floor : intrinsic });
      }
    }
  });

  for (const fork of FORKS) {
    it(`returns what the call's transaction returns, with the same gas, call after call on one VM (${fork})`, async function () {
      this.timeout(60_000);
      const common = commonAt(fork);
      const cases = fork === Hardfork.Osaka ? 120 : 25;
      for (let seed = 1; seed <= cases; seed++) {
        const random = new Random(seed * 7919 + FORKS.indexOf(fork));
        const world = randomWorld(random, fork);
        const [viaTransaction, viaMessage] = [await vmOn(common, world), await vmOn(common, world)];
        const block = callBlock(common, world, random);
        const targets = [...CONTRACTS, ...CONTRACTS, EMPTY, ABSENT[0]!, at(random.pick(PRECOMPILES)), ...(world.accounts.some((a) => a.address === DELEGATED) ? [DELEGATED] : [])];
        for (let i = 0; i < 1 + random.int(4); i++) {
          const from = createAddressFromString(random.pick([...FUNDED, FUNDED[0]!, EMPTY, ABSENT[1]!]));
          const funded = FUNDED.includes(from.toString() as PrefixedHexString);
          const data = random.bytes(random.chance(0.3) ? 0 : random.int(0x60));
          const call: Call = { from, to: createAddressFromString(random.pick(targets)), value: funded && random.chance(0.3) ? BigInt(random.int(1000)) : 0n, data, gasLimit: 0n };
          const { intrinsic, least } = messageGas(common, data);
          call.gasLimit = random.chance(0.2) ? least + BigInt(random.int(3000)) : random.chance(0.5) ? 60_000n + BigInt(random.int(200_000)) : 1_000_000n + BigInt(random.int(1_000_000));
          const expected = seen(await reverted(viaTransaction, () => asTransaction(viaTransaction, block, call)));
          const actual = seen(await reverted(viaMessage, () => runMessageCall(viaMessage, { ...call, block }, intrinsic)));
          expect(actual, `${fork}, seed ${seed}, call ${i}`).to.deep.equal(expected);
        }
        expect(bytesToHex(await viaMessage.stateManager.getStateRoot()), `${fork}, seed ${seed}: the state after the calls`).to.equal(bytesToHex(await viaTransaction.stateManager.getStateRoot()));
      }
    });
  }
});
