// What an engine answered, as plain JSON: compared as text between the engines, shown as a diff when they differ.
import type { Log } from '@ethereumjs/evm';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Outcome = { [key: string]: Json };

export const hex = (bytes: Uint8Array | undefined | null): string | null => (bytes == null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex'));
const big = (value: bigint | undefined): string | null => (value === undefined ? null : value.toString());

interface ExecLike {
  exceptionError?: { error: string; errorType?: string };
  executionGasUsed: bigint;
  returnValue: Uint8Array;
  logs?: Log[];
  selfdestruct?: Set<string> | Map<string, unknown>;
  createdAddresses?: Set<string>;
  gasRefund?: bigint;
  blobGasUsed?: bigint;
}

interface EVMResultLike {
  createdAddress?: { toString(): string };
  execResult: ExecLike;
}

interface RunTxResultLike extends EVMResultLike {
  bloom: { bitvector: Uint8Array };
  amountSpent: bigint;
  receipt: { cumulativeBlockGasUsed: bigint; bitvector: Uint8Array; logs: Log[]; status?: number; stateRoot?: Uint8Array; blobGasUsed?: bigint; blobGasPrice?: bigint };
  totalGasSpent: bigint;
  blockGasSpent: bigint;
  gasRefund: bigint;
  minerValue: bigint;
  accessList?: unknown;
}

const logs = (list: Log[] | undefined): Json => (list ?? []).map(([address, topics, data]) => [hex(address), topics.map(hex), hex(data)]);
const sorted = (items: Iterable<string> | undefined): Json => [...(items ?? [])].map(String).sort();

export function execOutcome(r: ExecLike): Outcome {
  return {
    error: r.exceptionError?.error ?? null,
    gasUsed: big(r.executionGasUsed),
    returned: hex(r.returnValue),
    logs: logs(r.logs),
    selfdestruct: sorted(r.selfdestruct?.keys()),
    created: sorted(r.createdAddresses),
    refund: big(r.gasRefund),
    blobGas: big(r.blobGasUsed),
  };
}

export function callOutcome(r: EVMResultLike): Outcome {
  return { created: r.createdAddress?.toString() ?? null, exec: execOutcome(r.execResult) };
}

export function txOutcome(r: RunTxResultLike): Outcome {
  const { receipt } = r;
  return {
    ...callOutcome(r),
    gas: big(r.totalGasSpent),
    blockGas: big(r.blockGasSpent),
    refund: big(r.gasRefund),
    spent: big(r.amountSpent),
    minerValue: big(r.minerValue),
    bloom: hex(r.bloom.bitvector),
    receipt: {
      status: receipt.status ?? null,
      stateRoot: hex(receipt.stateRoot),
      cumulative: big(receipt.cumulativeBlockGasUsed),
      bitvector: hex(receipt.bitvector),
      logs: logs(receipt.logs),
      blobGasUsed: big(receipt.blobGasUsed),
      blobGasPrice: big(receipt.blobGasPrice),
    },
  };
}

/**
 * A step the engine refused or failed on: its message (the same input must fail the same way), with runs of white
 * space as one: a message of the transaction library quotes a function's source text (Common's chainId, for a
 * transaction of another chain), which the pristine copies' bundle indents otherwise.
 */
export function thrown(error: unknown): Outcome {
  return { thrown: (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ') };
}

/** Where two JSON values first differ (a path and both values), or undefined when they are equal. */
export function firstDifference(a: Json | undefined, b: Json | undefined, path = ''): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const found = firstDifference((a as Record<string, Json>)[key], (b as Record<string, Json>)[key], `${path}/${key}`);
      if (found !== undefined) return found;
    }
  }
  return `${path || '/'}: edited ${JSON.stringify(a)?.slice(0, 300)} ≠ pristine ${JSON.stringify(b)?.slice(0, 300)}`;
}
