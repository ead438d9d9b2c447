import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, type Address } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import type { SimulatedBlock } from '../../generated/types.js';
import type { SimulatedResult } from './simulate.js';
import { toRpcBlock } from '../format/block.js';
import { toRpcTransaction } from '../format/transaction.js';

/** An unsigned transaction's hash: of its encoding with v, r and s zero, as geth hashes simulated ones. */
const unsignedHash = (tx: TypedTransaction) => keccak256(tx.serialize());

/** A simulated block as geth answers it: the block object without totalDifficulty, its calls' results among its members. */
export function toRpcSimulatedBlock({ block, calls, senders }: SimulatedResult, fullTransactions: boolean): SimulatedBlock {
  const transactions = fullTransactions
    ? block.transactions.map((tx, i) => toRpcTransaction(Object.create(tx, { hash: { value: () => unsignedHash(tx) } }) as TypedTransaction, block, i, senders[i] as Address))
    : block.transactions.map((tx) => bytesToHex(unsignedHash(tx)));
  const { totalDifficulty: _, ...rpc } = toRpcBlock(block, 0n, transactions);
  const { baseFeePerGas, blobGasUsed, ...rest } = rpc;
  // Members in geth's (alphabetical) order, calls among them.
  return { baseFeePerGas, blobGasUsed, calls, ...rest };
}
