// anvil's state dump (its `SerializableState`, as anvil 1.x writes it): the block environment, the accounts
// (nonce, balance, code, storage), the best block number, the blocks and the transactions. What the node writes
// of it and what it reads back; test/fixtures/anvil/ holds dumps anvil itself made.
import type { Block } from '@ethereumjs/block';
import { isFeeMarket1559Tx, isBlob4844Tx, isEOACode7702Tx, type TypedTransaction } from '@ethereumjs/tx';
import { type Address } from '@ethereumjs/util';
import { toRpcHeader } from '../format/header.js';
import { toData, toQuantity } from '../format/quantity.js';
import { toRpcTransaction } from '../format/transaction.js';
import { impersonatedSender } from '../txpool/impersonation.js';

/** What a dump says of one account; storage keys and values as 32-byte words. */
export interface DumpedAccount {
  nonce: bigint;
  balance: bigint;
  /** undefined: the dump does not say (anvil always does), and the account keeps its code */
  code?: Uint8Array;
  storage: Array<[slot: Uint8Array, value: Uint8Array]>;
}

/**
 * anvil's block environment (revm's BlockEnv) at the head: the block the dump was taken at. anvil 1.x reads
 * every member, the gas limit and base fee as JSON numbers.
 */
export function blockEnv(head: Block, blobGasPrice: bigint): Record<string, unknown> {
  const h = head.header;
  return {
    number: toQuantity(h.number),
    beneficiary: h.coinbase.toString(),
    timestamp: toQuantity(h.timestamp),
    gas_limit: Number(h.gasLimit),
    basefee: Number(h.baseFeePerGas ?? 0n),
    difficulty: toQuantity(h.difficulty),
    prevrandao: toData(h.mixHash),
    blob_excess_gas_and_price: { excess_blob_gas: Number(h.excessBlobGas ?? 0n), blob_gasprice: Number(blobGasPrice) },
    slot_num: 0,
  };
}

/** The header members anvil keeps of a block (alloy's Header), fork-dependent ones left out before their fork. */
const HEADER_MEMBERS = [
  'parentHash', 'sha3Uncles', 'miner', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'logsBloom', 'difficulty', 'number', 'gasLimit', 'gasUsed',
  'timestamp', 'extraData', 'mixHash', 'nonce', 'baseFeePerGas', 'withdrawalsRoot', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'requestsHash',
] as const;

/** Block-wide members of an RPC transaction that anvil's transaction envelope does not carry. */
const NOT_IN_ENVELOPE = new Set(['blockHash', 'blockNumber', 'blockTimestamp', 'transactionIndex', 'from']);

/** A block as anvil keeps one (SerializableBlock): its header, its transactions with who impersonated them, no ommers. */
export function anvilBlock(block: Block, senders: Address[]): Record<string, unknown> {
  const rpc = toRpcHeader(block) as unknown as Record<string, unknown>;
  const header = Object.fromEntries(HEADER_MEMBERS.filter((key) => rpc[key] !== undefined).map((key) => [key, rpc[key]]));
  return {
    header,
    transactions: block.transactions.map((tx, i) => ({ transaction: envelope(tx, block, i, senders[i]!), impersonated_sender: impersonatedSender(tx, senders[i]!)?.toString() ?? null })),
    ommers: [],
    withdrawals: block.withdrawals === undefined ? null : [],
  };
}

function envelope(tx: TypedTransaction, block: Block, index: number, sender: Address): Record<string, unknown> {
  const rpc = toRpcTransaction(tx, block, index, sender) as unknown as Record<string, unknown>;
  const dynamic = isFeeMarket1559Tx(tx) || isBlob4844Tx(tx) || isEOACode7702Tx(tx);
  return Object.fromEntries(Object.entries(rpc).filter(([key, value]) => value !== undefined && !NOT_IN_ENVELOPE.has(key) && !(dynamic && key === 'gasPrice')));
}
