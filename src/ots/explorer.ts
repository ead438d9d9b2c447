// What Otterscan asks of a node (its `ots_` API, level 8), answered from the chain's blocks, the transactions'
// records and replays with geth's callTracer.
import type { Block } from '@ethereumjs/block';
import { Address, bytesToHex } from '@ethereumjs/util';
import type {
  CallFrame,
  OtsBlockDetails,
  OtsBlockTransactions,
  OtsContractCreator,
  OtsInternalOperation,
  OtsReceipt,
  OtsTraceEntry,
  OtsTransactionPage,
  Transaction,
} from '../../generated/types.js';
import type { Chain } from '../chain/chain.js';
import { toRpcBlock } from '../format/block.js';
import { toQuantity } from '../format/quantity.js';
import { toRpcReceipt } from '../format/receipt.js';
import { toRpcTransaction } from '../format/transaction.js';
import type { TxRecord } from '../storage/layout.js';
import type { TraceService } from '../tracing/trace-service.js';

/** A transaction of an address, where it is in the chain. */
interface Match {
  hash: Uint8Array;
  record: TxRecord;
}

/** Gas a transaction that ran no code uses at most: one that used more may have created a contract inside. */
const PLAIN_TRANSFER_GAS = 21_000n;

export class Explorer {
  constructor(
    private readonly chain: Chain,
    private readonly tracing: TraceService,
  ) {}

  async blockDetails(number: bigint): Promise<OtsBlockDetails | null> {
    const block = await this.chain.blockByNumber(number);
    if (block === undefined) return null;
    const records = (await this.chain.blocks.completeRecords(block)) ?? [];
    const rest: Partial<ReturnType<typeof toRpcBlock>> = toRpcBlock(block, await this.chain.totalDifficulty(block), []);
    delete rest.transactions;
    const totalFees = records.reduce((sum, record) => sum + record.receipt.gasUsed * record.effectiveGasPrice, 0n);
    return {
      block: { ...(rest as Omit<ReturnType<typeof toRpcBlock>, 'transactions'>), logsBloom: null, transactionCount: block.transactions.length },
      issuance: { blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' },
      totalFees: toQuantity(totalFees),
    };
  }

  async blockTransactions(number: bigint, page: number, size: number): Promise<OtsBlockTransactions | null> {
    const block = await this.chain.blockByNumber(number);
    if (block === undefined) return null;
    const records = (await this.chain.blocks.completeRecords(block)) ?? [];
    const start = page * size;
    const indexes = [...block.transactions.keys()].slice(start, start + size);
    const transactions = indexes.map((i) => {
      const tx = this.transaction(block, i, records[i]);
      return { ...tx, input: tx.input.slice(0, 10) };
    });
    const receipts = indexes.map((i) => ({ ...this.receipt(block.transactions[i]!.hash(), records[i]!), logs: null, logsBloom: null }));
    return { fullblock: { ...toRpcBlock(block, await this.chain.totalDifficulty(block), transactions), transactions, transactionCount: block.transactions.length }, receipts };
  }

  /**
   * A page of `address`'s transactions, newest first: before block `from` (0: all) searching backwards, or after
   * it searching forwards; at least `size` of them, the last block found whole.
   */
  async search(address: string, from: bigint, size: number, direction: 'before' | 'after'): Promise<OtsTransactionPage> {
    const all = await this.matches(address.toLowerCase());
    const before = direction === 'before';
    const inRange = all.filter(({ record }) => (before ? from === 0n || record.blockNumber < from : record.blockNumber > from));
    // Walked from `from` away: newest first backwards, oldest first forwards.
    const walk = before ? inRange.reverse() : inRange;
    const taken: Match[] = [];
    for (const match of walk) {
      if (taken.length >= size && match.record.blockNumber !== taken.at(-1)!.record.blockNumber) break;
      taken.push(match);
    }
    const page = before ? taken : taken.reverse();
    const newest = page[0]?.record.blockNumber;
    const oldest = page.at(-1)?.record.blockNumber;
    const newer = all.some(({ record }) => (newest === undefined ? before && from !== 0n && record.blockNumber >= from : record.blockNumber > newest));
    const older = all.some(({ record }) => (oldest === undefined ? !before && record.blockNumber <= from : record.blockNumber < oldest));
    const txs: Transaction[] = [];
    const receipts: OtsReceipt[] = [];
    for (const { hash, record } of page) {
      const block = await this.chain.blockByHash(record.blockHash);
      if (block === undefined) continue;
      txs.push(this.transaction(block, record.index, record));
      receipts.push(this.receipt(hash, record));
    }
    return { txs, receipts, firstPage: !newer, lastPage: !older };
  }

  async contractCreator(address: string): Promise<OtsContractCreator | null> {
    const wanted = address.toLowerCase();
    const ran = (await this.allRecords()).filter(({ record }) => record.receipt.gasUsed > PLAIN_TRANSFER_GAS);
    const top = ran.find(({ record }) => record.receipt.contractAddress !== undefined && bytesToHex(record.receipt.contractAddress) === wanted);
    if (top !== undefined) return { hash: bytesToHex(top.hash), creator: bytesToHex(top.record.receipt.sender) };
    // Created inside a transaction: the first whose trace creates it.
    for (const { hash, record } of ran) {
      if (record.receipt.status === 0) continue;
      const frames = flatten(await this.callFrame(hash));
      if (frames.some(({ frame }) => (frame.type === 'CREATE' || frame.type === 'CREATE2') && frame.to === wanted && frame.error === undefined)) {
        return { hash: bytesToHex(hash), creator: bytesToHex(record.receipt.sender) };
      }
    }
    return null;
  }

  async transactionBySenderAndNonce(sender: string, nonce: bigint): Promise<string | null> {
    const wanted = sender.toLowerCase();
    for (const { hash, record } of await this.allRecords()) {
      if (bytesToHex(record.receipt.sender) !== wanted) continue;
      const tx = (await this.chain.blockByHash(record.blockHash))?.transactions[record.index];
      if (tx?.nonce === nonce) return bytesToHex(hash);
    }
    return null;
  }

  async traceEntries(hash: string): Promise<OtsTraceEntry[]> {
    return flatten(await this.callFrame(hex(hash))).map(({ frame, depth }) => ({
      type: frame.type,
      depth,
      from: frame.from,
      to: frame.to ?? frame.from,
      value: frame.type === 'STATICCALL' || frame.type === 'DELEGATECALL' ? null : (frame.value ?? '0x0'),
      input: frame.input,
      output: frame.output ?? null,
    }));
  }

  async internalOperations(hash: string): Promise<OtsInternalOperation[]> {
    const operations: OtsInternalOperation[] = [];
    for (const { frame, depth } of flatten(await this.callFrame(hex(hash)))) {
      // The transaction itself is not an internal operation, as in Erigon's: only what its code did.
      if (depth === 0 || frame.error !== undefined) continue;
      const value = frame.value ?? '0x0';
      const to = frame.to ?? frame.from;
      if (frame.type === 'CREATE' || frame.type === 'CREATE2') operations.push({ type: frame.type === 'CREATE' ? 2 : 3, from: frame.from, to, value });
      else if (frame.type === 'SELFDESTRUCT') operations.push({ type: 1, from: frame.from, to, value });
      else if (frame.type === 'CALL' && BigInt(value) > 0n) operations.push({ type: 0, from: frame.from, to, value });
    }
    return operations;
  }

  async transactionError(hash: string): Promise<string> {
    const top = await this.callFrame(hex(hash));
    return top.error !== undefined && top.output !== undefined ? top.output : '0x';
  }

  private async callFrame(hash: Uint8Array): Promise<CallFrame> {
    return (await this.tracing.traceTransaction(hash, { tracer: 'callTracer' })) as CallFrame;
  }

  private transaction(block: Block, index: number, record: TxRecord | undefined): Transaction {
    const tx = block.transactions[index]!;
    return toRpcTransaction(tx, block, index, record === undefined ? tx.getSenderAddress() : new Address(record.receipt.sender));
  }

  private receipt(hash: Uint8Array, record: TxRecord): OtsReceipt {
    return { ...toRpcReceipt(hash, record), timestamp: toQuantity(record.blockTimestamp) };
  }

  /** Every mined transaction of the chain, in chain order. */
  private async allRecords(): Promise<Match[]> {
    const all: Match[] = [];
    for await (const [hash, record] of this.chain.blocks.txRecords()) all.push({ hash, record });
    return all.sort((a, b) => (a.record.blockNumber === b.record.blockNumber ? a.record.index - b.record.index : a.record.blockNumber < b.record.blockNumber ? -1 : 1));
  }

  /** The transactions `address` sent, received, created or emitted a log in, in chain order. */
  private async matches(address: string): Promise<Match[]> {
    return (await this.allRecords()).filter(({ record }) => {
      const { receipt, to } = record;
      return (
        bytesToHex(receipt.sender) === address ||
        (to !== undefined && bytesToHex(to) === address) ||
        (receipt.contractAddress !== undefined && bytesToHex(receipt.contractAddress) === address) ||
        receipt.logs.some(([emitter]) => bytesToHex(emitter) === address)
      );
    });
  }
}

const hex = (hash: string) => Buffer.from(hash.slice(2), 'hex') as Uint8Array;

/** A call tree's frames depth first, each with its depth. */
function flatten(top: CallFrame): Array<{ frame: CallFrame; depth: number }> {
  const out: Array<{ frame: CallFrame; depth: number }> = [];
  const visit = (frame: CallFrame, depth: number) => {
    out.push({ frame, depth });
    for (const call of frame.calls ?? []) visit(call, depth + 1);
  };
  visit(top, 0);
  return out;
}

