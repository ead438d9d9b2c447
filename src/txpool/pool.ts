/**
 * The transaction pool: admission (each entry decided in entry.ts, applied here), pending/queued
 * bookkeeping, the journal, and the price order the miner consumes. It never executes transactions
 * and never writes blocks; the chain tells it what was mined (removalOps + afterBlock).
 */
import { isEOACode7702Tx, type TypedTransaction } from '@ethereumjs/tx';
import { Address, createAddressFromString, eoaCode7702RecoverAuthority } from '@ethereumjs/util';

import { PoolErrors } from './errors.js';
import { DeferredJournal } from './deferred-journal.js';
import { entryOf } from './entry.js';
import { replayJournal } from './journal-replay.js';
import { Journal, type JournalOp } from './journal.js';
import type { Section } from '../storage/database.js';
import { Mutex } from './mutex.js';
import { StorageFault } from '../storage/storage-fault.js';
import { PoolEventHub } from './pool-events.js';
import { PoolIndex } from './pool-index.js';
import {
  DEFAULT_LIMIT,
  DEFAULT_MAX_TX_BYTES,
  type PoolContent,
  type PoolEnv,
  type PoolEvents,
  type PooledTx,
  type PoolOptions,
  type PoolSize,
  type SenderContent,
} from './types.js';

export class TxPool {
  readonly limit: number;
  /** The least fee cap admitted (anvil_setMinGasPrice, on chains without EIP-1559). */
  minGasPrice: bigint;
  readonly maxTxBytes: number;

  private readonly index = new PoolIndex();
  private nextSeq = 0;
  private readonly lock = new Mutex();
  private readonly journal: Journal;
  private readonly deferred: DeferredJournal;
  private readonly events: PoolEventHub;
  /** set once the chain the pool served was replaced (anvil_reset): nothing more is admitted */
  private retired = false;

  private constructor(
    db: Section,
    private readonly env: PoolEnv,
    opts: PoolOptions,
  ) {
    this.journal = new Journal(db);
    this.events = new PoolEventHub(opts.onListenerError);
    this.deferred = new DeferredJournal({
      holds: (ptx) => this.index.holds(ptx),
      putOp: (ptx) => this.putOp(ptx),
      write: (ops) => this.journal.write(ops),
      unwind: (members) =>
        this.lock.run(async () => {
          for (const p of members.filter((m) => this.index.holds(m))) {
            this.detach(p);
            this.events.emit('removed', p, 'dropped');
          }
        }),
    });
    this.limit = opts.limit ?? DEFAULT_LIMIT;
    this.minGasPrice = opts.minGasPrice ?? 0n;
    this.maxTxBytes = opts.maxTxBytes ?? DEFAULT_MAX_TX_BYTES;
    if (!Number.isInteger(this.limit) || this.limit < 1) throw new RangeError('txpool limit must be a positive integer');
  }

  /**
   * Open the pool over its journal: reload every journaled tx, recover senders,
   * drop stale nonces (against env.account()) and rebuild pending/queued.
   */
  static async open(db: Section, env: PoolEnv, opts: PoolOptions = {}): Promise<TxPool> {
    const pool = new TxPool(db, env, opts);
    await pool.lock.run(async () => {
      pool.nextSeq = await replayJournal(pool.journal, env, pool.index, pool.limit);
    });
    return pool;
  }

  // ------------------------------------------------------------------ reads

  get(hashHex: string): PooledTx | undefined {
    return this.index.get(hashHex.toLowerCase());
  }

  has(hashHex: string): boolean {
    return this.index.has(hashHex.toLowerCase());
  }

  /** Changes whenever the content does (a transaction comes, goes, or moves between pending and queued). */
  get version(): number {
    return this.index.version;
  }

  size(): PoolSize {
    return this.index.size(this.limit);
  }

  /** Every pooled tx, grouped by lowercase sender, nonce-ascending. */
  content(): PoolContent {
    return this.index.content();
  }

  /** One sender's txs and nonces. For a sender with nothing pooled, both nonces are the state nonce. */
  async contentFrom(senderHex: string): Promise<SenderContent> {
    const list = this.index.senderList(senderHex.toLowerCase());
    if (list !== undefined) {
      return {
        pending: list.pending(),
        queued: list.queued(),
        commitNonce: list.commitNonce,
        pendingNonce: list.pendingEnd(),
      };
    }
    const { nonce } = await this.env.account(createAddressFromString(senderHex));
    return { pending: [], queued: [], commitNonce: nonce, pendingNonce: nonce };
  }

  /**
   * eth_getTransactionCount(addr, 'pending'): the state nonce, advanced past
   * every pooled tx that continues the run from it.
   */
  async pendingNonce(senderHex: string): Promise<bigint> {
    const { nonce } = await this.env.account(createAddressFromString(senderHex));
    const list = this.index.senderList(senderHex.toLowerCase());
    let next = nonce;
    if (list !== undefined) while (list.byNonce.has(next)) next++;
    return next;
  }

  /**
   * Pending txs in block order: nonce order per sender; across senders by
   * effective tip at `baseFee` (descending), ties by arrival. A sender whose
   * next tx cannot pay `baseFee` contributes nothing further.
   */
  executables(baseFee: bigint = this.env.nextBaseFee()): PooledTx[] {
    return this.index.executables(baseFee);
  }

  // ----------------------------------------------------------------- events

  /** Subscribe; returns the unsubscribe function. Listeners run synchronously and must not throw. */
  on<E extends keyof PoolEvents>(event: E, listener: PoolEvents[E]): () => void {
    return this.events.on(event, listener);
  }

  off<E extends keyof PoolEvents>(event: E, listener: PoolEvents[E]): void {
    this.events.off(event, listener);
  }

  // ----------------------------------------------------------------- writes

  /**
   * Admit a signed, encoded transaction. Resolves once it is journaled; rejects
   * with a PoolError (nothing stored). Admissions are serialized.
   */
  add(raw: Uint8Array): Promise<PooledTx> {
    return this.lock.run(() => this.admit(raw, { deferJournal: false }));
  }

  /**
   * Admit like {@link add}, without waiting for the journal: the transaction is pooled (and may be
   * mined) at once, and is journaled only by {@link persist}. Call persist before acknowledging it,
   * unless it was mined meanwhile — a transaction in a landed block needs no journal. Under
   * automine most are: they never cost a journal write. Replacing or evicting a pooled transaction
   * still journals at once, so the journal never lacks both.
   */
  accept(raw: Uint8Array): Promise<PooledTx> {
    return this.lock.run(() => this.admit(raw, { deferJournal: true }));
  }

  /**
   * Resolves once the accepted transaction `hashHex` is in the journal, or is no longer pooled (mined,
   * replaced, dropped). Concurrent calls share a LevelDB batch: each group is written as the one
   * before it lands. When the write fails, the group's transactions leave the pool and each call
   * rejects with the write's error.
   */
  persist(hashHex: string): Promise<void> {
    const ptx = this.index.get(hashHex.toLowerCase());
    return ptx === undefined ? Promise.resolve() : this.deferred.persist(ptx);
  }

  /**
   * Admit a transaction from `sender` that carries the placeholder signature of an impersonated
   * account (see impersonation.ts): every rule applies but signature recovery, and the journal
   * records the sender.
   */
  addImpersonated(raw: Uint8Array, sender: Address): Promise<PooledTx> {
    return this.lock.run(() => this.admit(raw, { deferJournal: false, impersonated: sender }));
  }

  /** Every pooled tx, as {@link restore} takes them back. */
  snapshot(): readonly PooledTx[] {
    return this.index.transactions();
  }

  /**
   * Puts the pool back to `saved` (evm_revert). The journal's changes go to `write`, which lands
   * them with the chain's rewind in one batch; then pending and queued are derived again from the
   * state the chain went back to.
   */
  restore(saved: readonly PooledTx[], write: (ops: JournalOp[]) => Promise<void>): Promise<void> {
    return this.lock.run(async () => {
      const keep = new Set(saved.map((ptx) => ptx.hashHex));
      const gone = this.index.transactions().filter((ptx) => !keep.has(ptx.hashHex));
      const back = saved.filter((ptx) => !this.index.has(ptx.hashHex));
      const journaled = gone.filter((ptx) => !this.deferred.isDeferred(ptx.hashHex));
      await write([...journaled.map((ptx) => this.journal.delOp(ptx.hash)), ...back.map((ptx) => this.putOp(ptx))]);
      for (const ptx of gone) this.deferred.forget(ptx.hashHex);
      this.index.clear();
      const nonces = new Map<string, bigint>();
      for (const ptx of [...saved].sort((a, b) => a.seq - b.seq)) {
        const nonce = nonces.get(ptx.senderHex) ?? (await this.env.account(ptx.sender)).nonce;
        nonces.set(ptx.senderHex, nonce);
        this.index.attach(ptx, nonce);
      }
      for (const ptx of gone) this.events.emit('removed', ptx, 'dropped');
      for (const ptx of back) this.events.emit('added', ptx);
    });
  }

  /**
   * Runs `replace`, which replaces the chain this pool serves (anvil_reset), with no admission
   * under way; after it, succeeded or not, the admissions waiting and to come are refused: new
   * services take over the data dir.
   */
  retireAfter(replace: () => Promise<void>): Promise<void> {
    return this.lock.run(async () => {
      try {
        await replace();
      } finally {
        this.retired = true;
      }
    });
  }

  /**
   * Journal deletions for mined txs, to be committed in the chain's block batch
   * (each op carries `sublevel` = the journal db, so it can go to the batch of
   * the journal db or of any level above it). Unknown hashes yield no op.
   */
  removalOps(minedHashes: Iterable<string>): JournalOp[] {
    const ops: JournalOp[] = [];
    for (const h of minedHashes) {
      const ptx = this.index.get(h.toLowerCase());
      // An accepted transaction never journaled has nothing to delete.
      if (ptx !== undefined && !this.deferred.isDeferred(ptx.hashHex)) ops.push(this.journal.delOp(ptx.hash));
    }
    return ops;
  }

  /**
   * After the block batch landed: forget mined txs, re-read the nonces of the
   * affected senders (senders of mined pool txs, authorities of mined 7702 txs,
   * and `touchedSenders`, e.g. senders of block txs the pool never saw), drop
   * txs those nonces made stale (memory and journal) and promote queued txs.
   * Returns the txs dropped as stale.
   *
   * The mined txs leave memory before this returns, without waiting for the
   * lock (an admission may hold it across its journal write): called as the
   * block lands, no reader ever sees a tx both pooled and mined. Their journal
   * entries went with the block's batch (removalOps).
   */
  afterBlock(minedHashes: Iterable<string>, touchedSenders: Iterable<string> = []): Promise<PooledTx[]> {
    const affected = new Map<string, Address>();
    for (const h of minedHashes) {
      const ptx = this.index.get(h.toLowerCase());
      if (ptx === undefined) continue;
      this.detach(ptx);
      this.events.emit('removed', ptx, 'mined');
      affected.set(ptx.senderHex, ptx.sender);
      for (const authority of authorities(ptx.tx)) affected.set(authority.toString(), authority);
    }
    for (const s of touchedSenders) affected.set(s.toLowerCase(), createAddressFromString(s));
    return this.lock.run(() => this.resync(affected.keys()));
  }

  /**
   * Re-read the state nonce of every sender in the pool (after a state change
   * the pool was not told about: revert, setNonce, reorg) and drop stale txs.
   */
  revalidate(): Promise<PooledTx[]> {
    return this.lock.run(() => this.resync(this.index.senderHexes()));
  }

  /** Remove one tx (e.g. anvil_dropTransaction); later nonces of its sender become queued. */
  drop(hashHex: string): Promise<PooledTx | undefined> {
    return this.lock.run(async () => {
      const ptx = this.index.get(hashHex.toLowerCase());
      if (ptx === undefined) return undefined;
      await this.journal.write([this.journal.delOp(ptx.hash)]);
      this.detach(ptx);
      this.events.emit('removed', ptx, 'dropped');
      return ptx;
    });
  }

  /** Remove every tx `which` picks, all of them by default (memory and journal); answers them. */
  clear(which?: (ptx: PooledTx) => boolean): Promise<PooledTx[]> {
    return this.lock.run(async () => {
      const gone = which === undefined ? this.index.transactions() : this.index.transactions().filter(which);
      await this.journal.write(gone.map((p) => this.journal.delOp(p.hash)));
      if (which !== undefined) gone.forEach((ptx) => this.detach(ptx));
      else {
        this.index.clear();
        this.deferred.clear();
      }
      for (const ptx of gone) this.events.emit('removed', ptx, 'dropped');
      return gone;
    });
  }

  // -------------------------------------------------------------- internals

  private async admit(input: Uint8Array, { deferJournal, impersonated }: { deferJournal: boolean; impersonated?: Address }): Promise<PooledTx> {
    if (this.retired) throw PoolErrors.chainReplaced();
    const { pooled, commitNonce, replaced, evicted } = await entryOf(input, impersonated, {
      index: this.index,
      env: this.env,
      limit: this.limit,
      minGasPrice: this.minGasPrice,
      maxTxBytes: this.maxTxBytes,
      resync: (senderHex, nonce) => this.resync([senderHex], new Map([[senderHex, nonce]])),
    });
    const { tx, hash, hashHex, sender, senderHex, raw, nonce } = pooled;
    const ptx: PooledTx = Object.freeze({ tx, hash, hashHex, sender, senderHex, raw, seq: this.nextSeq++, nonce, impersonated: pooled.impersonated });
    const ops = [replaced, evicted].filter((gone) => gone !== undefined).map((gone) => this.journal.delOp(gone.hash));
    if (deferJournal && ops.length === 0) {
      this.deferred.defer(hashHex);
    } else {
      ops.push(this.putOp(ptx));
      await this.journal.write(ops);
    }

    if (replaced !== undefined) {
      this.detach(replaced);
      this.events.emit('removed', replaced, 'replaced');
    }
    if (evicted !== undefined) {
      this.detach(evicted);
      this.events.emit('removed', evicted, 'evicted');
    }
    this.index.attach(ptx, commitNonce);
    this.events.emit('added', ptx);
    return ptx;
  }

  /**
   * Re-read (or take from `known`) the state nonce of each sender; drop stale
   * txs from memory and journal, re-derive pending. Returns the dropped txs.
   */
  private async resync(senderHexes: Iterable<string>, known?: Map<string, bigint>): Promise<PooledTx[]> {
    const dropped: PooledTx[] = [];
    for (const hex of new Set(senderHexes)) {
      const list = this.index.senderList(hex);
      if (list === undefined) continue;
      const nonce = known?.get(hex) ?? (await this.env.account(list.sender)).nonce;
      const stale = this.index.rebase(hex, nonce);
      for (const ptx of stale) this.deferred.forget(ptx.hashHex);
      dropped.push(...stale);
    }
    if (dropped.length > 0) {
      try {
        await this.journal.write(dropped.map((p) => this.journal.delOp(p.hash)));
      } catch (error) {
        // Left in the journal they are harmless: their nonces are spent, so a reload drops them again.
        if (!(error instanceof StorageFault)) throw error;
      }
      for (const ptx of dropped) this.events.emit('removed', ptx, 'stale');
    }
    return dropped;
  }

  private putOp(ptx: PooledTx): JournalOp {
    return this.journal.putOp(ptx.hash, ptx.seq, ptx.raw, ptx.impersonated ? ptx.sender.bytes : undefined);
  }

  private detach(ptx: PooledTx): void {
    this.index.detach(ptx);
    this.deferred.forget(ptx.hashHex);
  }
}

/** Authorities of a 7702 tx's authorization list (their nonces move when it is mined). */
function authorities(tx: TypedTransaction): Address[] {
  if (!isEOACode7702Tx(tx)) return [];
  const out: Address[] = [];
  for (const item of tx.authorizationList) {
    try {
      out.push(eoaCode7702RecoverAuthority(item));
    } catch {
      // Invalid authorizations are skipped by the EVM too.
    }
  }
  return out;
}
