// Transactions the test suite sent (recorded by test/helpers/recorded-txs.ts with EVM_NODE_RECORD_TXS set), replayed
// in the order sent: one case per node that received them, on a world of their senders, each funded and at the nonce
// of its first recorded transaction. What other means gave those nodes (genesis contracts, eth_sendTransaction,
// state edits) is not there, so some transactions fail — the same way, the differential test checks, on both engines.
import { readFileSync } from 'node:fs';
import type { PrefixedHexString } from '@ethereumjs/util';
import type { AccountSpec, Case } from '../case.js';
import { devCommon } from '../case.js';
import type { Engine } from '../engine.js';

const BALANCE = 10n ** 24n;
const BLOCK = {
  number: 1000n,
  timestamp: 1_700_000_000n,
  coinbase: '0x00000000000000000000000000000000000c01b5' as PrefixedHexString,
  gasLimit: 60_000_000n,
  baseFeePerGas: 7n,
  prevRandao: new Uint8Array(32).fill(7),
  excessBlobGas: 0n,
};

interface Sent {
  raw: Uint8Array;
  sender?: string;
  nonce?: bigint;
  chainId?: bigint;
}

/** The chain a transaction was signed for: a typed one's first field (in a blob wrapper, its body's), a legacy one's from v (EIP-155). */
function chainIdOf(e: Engine, raw: Uint8Array): bigint | undefined {
  const typed = raw.length > 0 && raw[0]! <= 0x7f;
  const fields = e.rlp.RLP.decode(typed ? raw.subarray(1) : raw) as unknown[];
  if (typed) return e.util.bytesToBigInt((Array.isArray(fields[0]) ? fields[0][0] : fields[0]) as Uint8Array);
  const v = e.util.bytesToBigInt(fields[6] as Uint8Array);
  return v >= 35n ? (v - 35n) / 2n : undefined;
}

/** Sender, nonce and chain of a recorded transaction, as the edited engine reads them (nothing, if it cannot). */
function read(e: Engine, raw: Uint8Array): Sent {
  try {
    const chainId = chainIdOf(e, raw);
    const tx = e.tx.createTxFromRLP(raw, { common: devCommon(e, chainId) });
    return { raw, sender: tx.getSenderAddress().toString(), nonce: tx.nonce, chainId };
  } catch {
    return { raw };
  }
}

/**
 * The recording in `file` (JSON lines) as cases: a node's transactions in the order sent, split where a sender's
 * nonce goes back (a port the suite used again, for another node).
 */
export function recordedCases(e: Engine, file: string, trace: boolean): Case[] {
  const runs = new Map<string, Sent[][]>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const { node, raw } = JSON.parse(line) as { node: string; raw: PrefixedHexString };
    const sent = read(e, e.util.hexToBytes(raw));
    const ofNode = runs.get(node) ?? [[]];
    runs.set(node, ofNode);
    let run = ofNode[ofNode.length - 1]!;
    const goesBack = sent.sender !== undefined && run.some((earlier) => earlier.sender === sent.sender && earlier.nonce! >= sent.nonce!);
    if (goesBack) ofNode.push((run = []));
    run.push(sent);
  }
  const cases: Case[] = [];
  for (const [node, ofNode] of runs) {
    ofNode.forEach((run, i) => {
      const accounts = new Map<string, AccountSpec>();
      for (const { sender, nonce } of run) {
        if (sender !== undefined && !accounts.has(sender)) accounts.set(sender, { address: sender as PrefixedHexString, balance: BALANCE, nonce });
      }
      cases.push({
        name: `recorded ${node} run ${i + 1}`,
        accounts: [...accounts.values()],
        block: BLOCK,
        steps: run.map(({ raw }) => ({ kind: 'tx' as const, raw })),
        trace,
        chainId: run.find((sent) => sent.chainId !== undefined)?.chainId,
      });
    });
  }
  return cases;
}
