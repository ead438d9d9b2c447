// The benchmark's ERC-20 (scripts/bench/token.ts): deployed, then transfers, approvals, transfers from an
// allowance, reads, and the calls it refuses (no balance, no allowance), from the dev senders.
import type { PrefixedHexString } from '@ethereumjs/util';
import { generateAddress } from '@ethereumjs/util';
import { encodeBalanceOf, encodeConstructor, encodeTransfer } from '../../bench/token.js';
import type { Case, Step } from '../case.js';
import { Random } from '../random.js';
import { SENDERS, type Signer } from '../signer.js';

const word = (value: bigint | string) => (typeof value === 'string' ? value.slice(2) : value.toString(16)).padStart(64, '0');
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
const FEES = { type: 2, maxFeePerGas: 2n * 10n ** 9n, maxPriorityFeePerGas: 1n };

export function tokenCase(seed: number, signer: Signer, trace: boolean): Case {
  const random = new Random(seed);
  signer.reset();
  const owner = SENDERS[0]!.address as PrefixedHexString;
  const token = `0x${Buffer.from(generateAddress(bytes(owner), new Uint8Array(0))).toString('hex')}` as PrefixedHexString;
  const holders = [...SENDERS.map((s) => s.address), '0x00000000000000000000000000000000000000b0', '0x00000000000000000000000000000000000000b1'];
  const steps: Step[] = [{ kind: 'tx', raw: signer.sign(0, { ...FEES, data: bytes(encodeConstructor(10n ** 24n)), gasLimit: 1_000_000n }) }];
  for (let i = 0; i < 40; i++) {
    const from = random.int(SENDERS.length);
    const to = random.pick(holders);
    const amount = random.chance(0.1) ? 10n ** 30n : BigInt(random.int(10 ** 6)) * 10n ** 12n;
    let data: string;
    switch (random.int(6)) {
      case 0:
        data = `0x095ea7b3${word(random.pick(SENDERS).address)}${word(amount)}`; // approve
        break;
      case 1:
        data = `0x23b872dd${word(random.pick(SENDERS).address)}${word(to)}${word(amount)}`; // transferFrom
        break;
      case 2:
        steps.push({ kind: 'call', caller: SENDERS[from]!.address as PrefixedHexString, to: token, data: bytes(encodeBalanceOf(to)), value: 0n, gasLimit: 100_000n });
        continue;
      default:
        data = encodeTransfer(to, amount);
    }
    const gasLimit = random.chance(0.1) ? BigInt(25_000 + random.int(30_000)) : 120_000n;
    steps.push({ kind: 'tx', raw: signer.sign(from, { ...FEES, to: token, data: bytes(data), gasLimit }) });
  }
  return {
    name: `token seed ${seed}`,
    accounts: SENDERS.map((s) => ({ address: s.address as PrefixedHexString, balance: 10n ** 21n })),
    block: { number: 1n, timestamp: 1_700_000_000n, coinbase: '0x00000000000000000000000000000000000c01b5', gasLimit: 30_000_000n, baseFeePerGas: 10n ** 9n, prevRandao: random.bytes(32), excessBlobGas: 0n },
    steps,
    trace,
  };
}
