import type { Common } from '@ethereumjs/common';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';

/** What the pool needs to know about the chain; supplied by the chain module. */
export interface PoolEnv {
  /** @ethereumjs/common at the chain's current hardfork (chain id inside). */
  common: Common;
  /** Gas limit of the next block. */
  blockGasLimit(): bigint;
  /** Base fee of the next block. */
  nextBaseFee(): bigint;
  /** Account state at the latest block. */
  account(address: Address): Promise<{ nonce: bigint; balance: bigint }>;
}

export interface PoolOptions {
  /** txCountLimit: capacity of the pool (default 10,000). */
  limit?: number;
  /** Minimum fee cap (gasPrice / maxFeePerGas) accepted (default 0n). */
  minGasPrice?: bigint;
  /** Maximum encoded transaction size in bytes (default 128 KiB, as geth). */
  maxTxBytes?: number;
  /** Told of a listener that threw (admission goes on regardless). */
  onListenerError?: (error: unknown) => void;
}

export const DEFAULT_LIMIT = 10_000;
export const DEFAULT_MAX_TX_BYTES = 128 * 1024;
/** A blob transaction in its network form carries its blobs: geth's blob pool takes up to 1 MiB. */
export const MAX_BLOB_TX_BYTES = 1024 * 1024;
/** Replacement needs this much more (percent) on both fee cap and tip, as geth's default PriceBump. */
export const PRICE_BUMP_PERCENT = 10n;

/** A transaction accepted by the pool. Immutable; replaced txs get a new PooledTx. */
export interface PooledTx {
  readonly tx: TypedTransaction;
  readonly hash: Uint8Array;
  /** Lowercase 0x-prefixed. */
  readonly hashHex: string;
  /** Recovered once at admission (or journal reload); reuse it, recovery is expensive. */
  readonly sender: Address;
  /** Lowercase 0x-prefixed. */
  readonly senderHex: string;
  /** The exact bytes submitted (the canonical EIP-2718 encoding). */
  readonly raw: Uint8Array;
  /** Arrival order, unique and increasing across the pool's lifetime (survives restarts). */
  readonly seq: number;
  readonly nonce: bigint;
  /** True when sent from an impersonated account: `raw` carries a placeholder signature, `sender` was claimed. */
  readonly impersonated?: boolean;
}

export interface PoolSize {
  pending: number;
  queued: number;
  total: number;
  limit: number;
}

export interface PoolContent {
  pending: Map<string, PooledTx[]>;
  queued: Map<string, PooledTx[]>;
}

export interface SenderContent {
  pending: PooledTx[];
  queued: PooledTx[];
  /** The account's nonce in the latest block's state. */
  commitNonce: bigint;
  /** Next nonce after the unbroken run of pooled txs starting at commitNonce. */
  pendingNonce: bigint;
}

export type RemovalReason = 'mined' | 'stale' | 'replaced' | 'evicted' | 'dropped';

export interface PoolEvents {
  /** A transaction was accepted (including replacements). */
  added: (tx: PooledTx) => void;
  /** A transaction left the pool for a reason other than a journal reload. */
  removed: (tx: PooledTx, reason: RemovalReason) => void;
}
