// Generated cases: a world of four contracts running random programs (programs.ts), the dev senders, an
// account delegating to a contract (EIP-7702), and one to three transactions or messages into it, of every
// transaction type but blob-carrying ones, with gas from too little for the intrinsic cost up to millions;
// one in four is a block, built on the forks' system contracts (system.ts).
import type { PrefixedHexString } from '@ethereumjs/util';
import type { AccountSpec, Case, Step } from '../case.js';
import { ProgramGenerator, type Targets } from '../programs.js';
import { Random } from '../random.js';
import { SENDERS, type Signer } from '../signer.js';
import { queueTransaction, systemAccounts } from './system.js';

const at = (n: number): PrefixedHexString => `0x${n.toString(16).padStart(40, '0')}`;
const CONTRACTS = [0xc0de00, 0xc0de01, 0xc0de02, 0xc0de03].map(at);
const DELEGATED = at(0xde1e9a7e);
const EOA = at(0xe0a);
const ABSENT = [at(0xab5e47), at(0xab5e48)];
const TARGETS: Targets = { contracts: CONTRACTS, eoas: [EOA, ...SENDERS.map((s) => s.address.toLowerCase())], delegated: [DELEGATED], absent: ABSENT };
const ETHER = 10n ** 18n;

function slots(random: Random): [Uint8Array, Uint8Array][] {
  const out: [Uint8Array, Uint8Array][] = [];
  for (let key = 0; key < 6; key++) {
    if (!random.chance(0.4)) continue;
    const slot = new Uint8Array(32);
    slot[31] = key;
    out.push([slot, random.chance(0.5) ? Uint8Array.of(1 + random.int(255)) : random.bytes(32).map((b, i) => (i === 0 ? b | 1 : b))]);
  }
  return out;
}

export function randomCase(seed: number, signer: Signer, trace: boolean): Case {
  const random = new Random(seed);
  const programs = new ProgramGenerator(random, TARGETS);
  signer.reset();
  const accounts: AccountSpec[] = [
    ...SENDERS.map((s) => ({ address: s.address as PrefixedHexString, balance: 1000n * ETHER })),
    ...CONTRACTS.map((address) => ({ address, balance: random.chance(0.5) ? BigInt(random.int(1000)) : 0n, code: programs.program(), storage: slots(random) })),
    { address: DELEGATED, balance: ETHER, code: Uint8Array.from([0xef, 0x01, 0x00, ...Buffer.from(random.pick(CONTRACTS).slice(2), 'hex')]) },
    { address: EOA, balance: 5n, nonce: 1n },
  ];
  const steps: Step[] = [];
  for (let i = 1 + random.int(3); i > 0; i--) {
    const to = random.chance(0.9) ? random.pick([...CONTRACTS, ...CONTRACTS, DELEGATED, EOA]) : undefined;
    const data = to === undefined ? programs.initCode() : random.bytes(random.chance(0.3) ? 0 : random.int(0x60));
    const value = random.chance(0.7) ? 0n : BigInt(random.int(1000));
    const gasLimit = BigInt(random.chance(0.15) ? 21_000 + random.int(40_000) : random.chance(0.4) ? 60_000 + random.int(200_000) : 300_000 + random.int(700_000));
    if (to !== undefined && random.chance(0.3)) {
      steps.push({ kind: 'call', caller: SENDERS[random.int(SENDERS.length)]!.address as PrefixedHexString, to, data, value, gasLimit });
      continue;
    }
    const type = random.pick([0, 1, 2, 2, 2]);
    const fees = type === 0 || type === 1 ? { gasPrice: 10n ** 9n + BigInt(random.int(1000)) } : { maxFeePerGas: 2n * 10n ** 9n, maxPriorityFeePerGas: BigInt(random.int(1000)) };
    const accessList =
      type === 0 || !random.chance(0.5)
        ? undefined
        : [{ address: random.pick([...CONTRACTS, EOA]), storageKeys: Array.from({ length: random.int(3) }, () => `0x${random.int(6).toString(16).padStart(64, '0')}`) }];
    steps.push({ kind: 'tx', raw: signer.sign(random.int(SENDERS.length), { type, to, data, value, gasLimit, ...fees, accessList }) });
  }
  // One case in four runs as a block built on the forks' system contracts (with its own stream of choices, so that
  // its programs and transactions are those of its seed): its messages dropped, requests added to the queues.
  const asBlock = new Random(Math.imul(seed ^ 0x5b10c, 0x9e3779b1));
  asBlock.next(); // xorshift's first numbers from nearby seeds are alike
  const block = asBlock.chance(0.25);
  if (block) {
    accounts.push(...systemAccounts(asBlock));
    for (let i = asBlock.int(3); i > 0; i--) steps.push(queueTransaction(asBlock, signer));
  }
  return {
    name: `random seed ${seed}${block ? ' (a block)' : ''}`,
    asBlock: block,
    accounts,
    block: {
      number: 1000n,
      timestamp: 1_700_000_000n,
      coinbase: random.chance(0.1) ? random.pick(CONTRACTS) : at(0xc014ba5e),
      gasLimit: 30_000_000n,
      baseFeePerGas: 10n ** 9n,
      prevRandao: random.bytes(32),
      excessBlobGas: BigInt(random.int(3)) * 1_000_000n,
    },
    steps: block ? steps.filter((step) => step.kind === 'tx') : steps,
    trace,
  };
}
