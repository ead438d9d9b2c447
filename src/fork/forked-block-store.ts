import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { BlockStore } from '../chain/block-store.js';
import type { Database } from '../storage/database.js';
import type { TxRecord } from '../storage/layout.js';
import type { ForkHistory } from './fork-history.js';

/**
 * A forked chain's block store: the chain's own blocks from the fork block on, and below them (and
 * for the fork block's transactions) the remote's history. A transaction the node's pool holds is
 * not asked of the remote: receipts polled for a transaction just sent cost no remote call.
 */
export class ForkedBlockStore extends BlockStore {
  /** True for a transaction known to be the node's own (the pool's, set once the pool exists). */
  isLocal: (txHash: Uint8Array) => boolean = () => false;

  constructor(
    db: Database,
    commonFor: (header: { number: bigint; timestamp: bigint }) => Common,
    private readonly history: ForkHistory,
  ) {
    super(db, commonFor);
  }

  /** A remote block's is the one the remote reported with it, where it did. */
  override async totalDifficulty(hash: Uint8Array): Promise<bigint | undefined> {
    return (await super.totalDifficulty(hash)) ?? this.history.totalDifficulty(hash);
  }

  override async block(hash: Uint8Array): Promise<Block | undefined> {
    const own = await super.block(hash);
    if (own === undefined) return this.history.blockByHash(hash);
    return own.header.number === this.history.base.header.number ? this.history.withReportedSize(own) : own;
  }

  override async canonicalHash(number: bigint): Promise<Uint8Array | undefined> {
    return number < this.history.base.header.number ? this.history.canonicalHash(number) : super.canonicalHash(number);
  }

  override async txRecord(txHash: Uint8Array): Promise<TxRecord | undefined> {
    const own = await super.txRecord(txHash);
    if (own !== undefined || this.isLocal(txHash)) return own;
    return this.history.txRecord(txHash);
  }

  override async completeRecords(block: Block): Promise<TxRecord[] | undefined> {
    const own = await super.records(block);
    if (own !== undefined || block.header.number > this.history.base.header.number) return own;
    return this.history.records(block);
  }

  override async logsBloom(hash: Uint8Array): Promise<Uint8Array | undefined> {
    return (await super.logsBloom(hash)) ?? (await this.history.blockByHash(hash))?.header.logsBloom;
  }
}
