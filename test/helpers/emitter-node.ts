// Deploying the log emitter (test/helpers/log-emitter.ts) on a test node, making it emit, and
// checking what filters report.
import { expect } from 'chai';
import { toHex, type Hex } from 'viem';
import type { Log } from '../../generated/types.js';
import { DEV_ADDRESSES, type TestNode } from './node.js';
import { emitCalldata, emitGas, LOG_EMITTER_INITCODE, type EmittedLog } from './log-emitter.js';

/** Deploys an emitter (automine must be on) and answers its address. */
export async function deployEmitter(node: TestNode, from: string = DEV_ADDRESSES[0]): Promise<Hex> {
  const hash = await node.call('eth_sendTransaction', [{ from, data: LOG_EMITTER_INITCODE, gas: '0x30000' }]);
  const receipt = await node.call('eth_getTransactionReceipt', [hash]);
  if (receipt === null || receipt.contractAddress === undefined || receipt.contractAddress === null) throw new Error('emitter not deployed');
  return receipt.contractAddress as Hex;
}

/** Sends a transaction that makes `emitter` emit `logs`; with automine it is mined when this resolves. */
export async function emit(node: TestNode, emitter: string, logs: readonly EmittedLog[], from: string = DEV_ADDRESSES[0]): Promise<Hex> {
  return (await node.call('eth_sendTransaction', [{ from, to: emitter, data: emitCalldata(logs), gas: toHex(emitGas(logs.length)) }])) as Hex;
}

/** A 32-byte topic from a small number, for readable tables. */
export const topic = (n: number | bigint): Hex => `0x${BigInt(n).toString(16).padStart(64, '0')}`;

/** A log's place in the chain, as a sortable key. */
export const logKey = (log: Log): string => `${BigInt(log.blockNumber)}:${BigInt(log.logIndex)}`;

/** Logs polled from a filter must come in chain order: block, then position. */
export function expectChainOrder(logs: readonly Log[]): void {
  for (let i = 1; i < logs.length; i++) {
    const [b0, i0] = [BigInt(logs[i - 1].blockNumber), BigInt(logs[i - 1].logIndex)];
    const [b1, i1] = [BigInt(logs[i].blockNumber), BigInt(logs[i].logIndex)];
    expect(b1 > b0 || (b1 === b0 && i1 > i0), `log ${logKey(logs[i])} after ${logKey(logs[i - 1])}`).to.equal(true);
  }
}

/** A filter id as the node hands them out. */
export const FILTER_ID = /^0x[0-9a-f]{1,32}$/;
