// Chain activity for the read-method specs: transactions sent through the node's own
// eth_sendTransaction (it holds the dev keys), each mined at once by automine.
import type { Receipt, TransactionRequest } from '../../generated/types.js';
import { DEV_ADDRESSES, type TestNode } from './node.js';

/** Runtime code of the storage contract: returns slot 0 as one 32-byte word. */
export const STORAGE_RUNTIME = '0x60005460005260206000f3';
/** Its slots after construction. */
export const STORAGE_SLOTS = { 0: 0x2an, 1: 0xbeefn, 2: 0x0abcn } as const;
/**
 * Creation code: SSTORE(0, 0x2a); SSTORE(1, 0xbeef); SSTORE(2, 0x0abc) (a value whose stored bytes
 * start with a zero nibble); CODECOPY the 11-byte runtime from offset 0x1d; RETURN it.
 *   602a 6000 55 | 61beef 6001 55 | 610abc 6002 55 | 600b 601d 6000 39 | 600b 6000 f3 | runtime
 */
export const STORAGE_INITCODE = `0x602a60005561beef600155610abc600255600b601d600039600b6000f3${STORAGE_RUNTIME.slice(2)}`;

export const hex = (value: bigint | number) => `0x${value.toString(16)}`;

/** Sends `request` through eth_sendTransaction and answers its receipt (automine has mined it). */
export async function send(node: TestNode, request: TransactionRequest): Promise<Receipt> {
  const hash = await node.call('eth_sendTransaction', [request]);
  const receipt = await node.call('eth_getTransactionReceipt', [hash]);
  if (receipt === null) throw new Error(`transaction ${hash} was not mined (is automine off?)`);
  return receipt;
}

export function transfer(node: TestNode, to: string, value: bigint, from: string = DEV_ADDRESSES[0]): Promise<Receipt> {
  return send(node, { from, to, value: hex(value) });
}

/** Deploys the storage contract; answers its address and the deployment receipt. */
export async function deployStorageContract(node: TestNode, from: string = DEV_ADDRESSES[0]): Promise<{ address: string; receipt: Receipt }> {
  const receipt = await send(node, { from, input: STORAGE_INITCODE });
  if (receipt.status !== '0x1' || receipt.contractAddress === null) throw new Error(`deployment failed: ${JSON.stringify(receipt)}`);
  return { address: receipt.contractAddress, receipt };
}
