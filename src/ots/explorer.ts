// What Otterscan asks of a node (its `ots_` API, level 8), answered from the chain's blocks, the transactions'
// records and replays with geth's callTracer.
import type { Block } from '@ethereumjs/block';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, bytesToHex, createAddressFromString, equalsBytes } from '@ethereumjs/util';
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
   * it searching forwards; at least `size` of them, the last block found whole. The walk goes block by block from
   * `from` and stops at the first match past the page (which says there are more), holding one page at a time.
   */
  async search(address: string, from: bigint, size: number, direction: 'before' | 'after'): Promise<OtsTransactionPage> {
    const wanted = address.toLowerCase();
    const before = direction === 'before';
    const head = this.chain.head().header.number;
    const first = this.firstBlock();
    const taken: Match[] = [];
    let further = false;
    const start = before ? (from === 0n || from > head ? head : from - 1n) : from + 1n;
    for await (const match of this.walk(wanted, start, before ? first : head, before ? -1n : 1n)) {
      if (taken.length >= size && match.record.blockNumber !== taken.at(-1)!.record.blockNumber) {
        further = true;
        break;
      }
      taken.push(match);
    }
    // The other way: is there a match on the far side of `from` (nothing lies between it and the page)?
    const behind = before ? from !== 0n && from <= head && (await this.any(wanted, from, head, 1n)) : from >= first && (await this.any(wanted, from > head ? head : from, first, -1n));
    const page = before ? taken : taken.reverse();
    const txs: Transaction[] = [];
    const receipts: OtsReceipt[] = [];
    for (const { hash, record } of page) {
      const block = await this.chain.blockByHash(record.blockHash);
      if (block === undefined) continue;
      txs.push(this.transaction(block, record.index, record));
      receipts.push(this.receipt(hash, record));
    }
    return { txs, receipts, firstPage: before ? !behind : !further, lastPage: before ? !further : !behind };
  }

  /**
   * Who created the contract at `address` and in which transaction: the first block whose state holds its code is
   * found by halving the chain (a contract's code, once there, stays), and only that block's transactions are looked
   * at, traced if none created it at the top. Null for an account without code, and for code the chain started with
   * or a state edit set.
   */
  async contractCreator(address: string): Promise<OtsContractCreator | null> {
    const wanted = address.toLowerCase();
    const target = createAddressFromString(wanted);
    const hasCode = async (n: bigint) => ((await this.stateAt(n))?.getCode(target).then((code) => code.length > 0)) ?? false;
    const created = await this.firstBlockWhere(hasCode);
    if (created === undefined) return null;
    const block = (await this.chain.blockByNumber(created))!;
    const records = (await this.chain.blocks.completeRecords(block)) ?? [];
    const top = records.findIndex((record) => record.receipt.contractAddress !== undefined && bytesToHex(record.receipt.contractAddress) === wanted);
    if (top >= 0) return { hash: bytesToHex(block.transactions[top]!.hash()), creator: bytesToHex(records[top]!.receipt.sender) };
    // Created inside a transaction: the first of the block whose trace creates it.
    for (const [i, record] of records.entries()) {
      if (record.receipt.status === 0 || record.receipt.gasUsed <= PLAIN_TRANSFER_GAS) continue;
      const hash = block.transactions[i]!.hash();
      const frames = flatten(await this.callFrame(hash));
      if (frames.some(({ frame }) => (frame.type === 'CREATE' || frame.type === 'CREATE2') && frame.to === wanted && frame.error === undefined)) {
        return { hash: bytesToHex(hash), creator: bytesToHex(record.receipt.sender) };
      }
    }
    return null;
  }

  /** The transaction `sender` sent with `nonce`: in the first block after which its nonce is past it, found by halving the chain. */
  async transactionBySenderAndNonce(sender: string, nonce: bigint): Promise<string | null> {
    const address = createAddressFromString(sender.toLowerCase());
    const past = async (n: bigint) => ((await (await this.stateAt(n))?.getAccount(address))?.nonce ?? 0n) > nonce;
    const at = await this.firstBlockWhere(past);
    if (at === undefined) return null;
    const block = (await this.chain.blockByNumber(at))!;
    const records = (await this.chain.blocks.completeRecords(block)) ?? [];
    const index = block.transactions.findIndex((tx, i) => tx.nonce === nonce && records[i] !== undefined && equalsBytes(records[i]!.receipt.sender, address.bytes));
    return index < 0 ? null : bytesToHex(block.transactions[index]!.hash());
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

  /** The chain's first block this explorer reads: a fork's own blocks start after the fork block, whose history is the remote's. */
  private firstBlock(): bigint {
    return this.chain.fork === undefined ? 0n : this.chain.fork.base.header.number + 1n;
  }

  private async stateAt(number: bigint): Promise<MerkleStateManager | undefined> {
    const block = await this.chain.blockByNumber(number);
    return block === undefined ? undefined : this.chain.state.at(this.chain.stateRootOf(block));
  }

  /**
   * The first block from the fork block (or genesis) to the head at which `holds` holds, for a `holds` that stays true
   * once true; undefined where it does not hold at the head, or holds from the start (nothing on this chain made it so).
   */
  private async firstBlockWhere(holds: (number: bigint) => Promise<boolean>): Promise<bigint | undefined> {
    let low = this.firstBlock() - 1n < 0n ? 0n : this.firstBlock() - 1n;
    let high = this.chain.head().header.number;
    if (!(await holds(high)) || (await holds(low))) return undefined;
    while (high - low > 1n) {
      const middle = (low + high) / 2n;
      if (await holds(middle)) high = middle;
      else low = middle;
    }
    return high;
  }

  /** `address`'s transactions (sent, received, created, or with a log it emitted) from block `start` to `end`, `step` by step. */
  private async *walk(address: string, start: bigint, end: bigint, step: 1n | -1n): AsyncGenerator<Match> {
    for (let n = start; step > 0n ? n <= end : n >= end; n += step) {
      const block = await this.chain.blockByNumber(n);
      if (block === undefined || block.transactions.length === 0) continue;
      const records = (await this.chain.blocks.completeRecords(block)) ?? [];
      const indexes = [...records.keys()];
      for (const i of step > 0n ? indexes : indexes.reverse()) {
        const record = records[i]!;
        if (involves(record, address)) yield { hash: block.transactions[i]!.hash(), record };
      }
    }
  }

  private async any(address: string, start: bigint, end: bigint, step: 1n | -1n): Promise<boolean> {
    for await (const _ of this.walk(address, start, end, step)) return true;
    return false;
  }
}

/** Whether `address` sent, received or created the transaction, or emitted one of its logs. */
function involves({ receipt, to }: TxRecord, address: string): boolean {
  return (
    bytesToHex(receipt.sender) === address ||
    (to !== undefined && bytesToHex(to) === address) ||
    (receipt.contractAddress !== undefined && bytesToHex(receipt.contractAddress) === address) ||
    receipt.logs.some(([emitter]) => bytesToHex(emitter) === address)
  );
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

