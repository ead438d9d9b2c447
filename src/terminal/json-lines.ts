// --json: what the terminal prints, one JSON object per line, for a program to read (the text lines are for people).
import type { Block } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import type { RunTxResult } from '@ethereumjs/vm';
import { RpcError } from '../rpc/errors.js';
import { failureOf } from './outcome.js';

const HASH = /^0x[0-9a-f]{64}$/;
const at = () => new Date().toISOString();

/** A request once answered: its method, how long it took (ms), the transaction hash a submission answered, or the error. */
export function requestLine(method: string, durationMs: number, result: unknown, error: unknown): string {
  const line: Record<string, unknown> = { time: at(), event: 'request', method, durationMs: Math.round(durationMs * 100) / 100 };
  if (error === undefined && method.startsWith('eth_send') && typeof result === 'string' && HASH.test(result)) line.txHash = result;
  if (error !== undefined) line.error = error instanceof RpcError ? { code: error.code, message: error.message } : { message: String(error) };
  return JSON.stringify(line);
}

/** A mined transaction: its hash, block, gas, status, what it created, its failure and console.log lines. */
export function transactionLine(block: Block, hash: string, result: RunTxResult, consoleLog: string[]): string {
  const failure = failureOf(result);
  return JSON.stringify({
    time: at(),
    event: 'transaction',
    txHash: hash,
    block: Number(block.header.number),
    blockHash: bytesToHex(block.hash()),
    blockTimestamp: Number(block.header.timestamp),
    gasUsed: Number(result.totalGasSpent),
    status: failure === undefined ? 1 : 0,
    ...(result.createdAddress !== undefined && failure === undefined && { contractAddress: result.createdAddress.toString() }),
    ...(failure !== undefined && { error: failure }),
    ...(consoleLog.length > 0 && { consoleLog }),
  });
}

/** The console.log lines of an eth_call or eth_estimateGas. */
export function callLogLine(method: string, consoleLog: string[]): string {
  return JSON.stringify({ time: at(), event: 'console.log', method, consoleLog });
}
