/**
 * Shared fixtures for the txpool unit specs: a fake PoolEnv over a Map of accounts,
 * an Osaka Common with chain id 31337, the dev-mnemonic wallets and signing helpers.
 */
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { type Address } from '@ethereumjs/util';
import { expect } from 'chai';
import { getBytes, HDNodeWallet, Mnemonic, type TransactionRequest } from 'ethers';

import { toRpcError } from '../../src/rpc/domain-errors.js';
import { PoolError } from '../../src/txpool/errors.js';
import { openMemoryDatabase, type Database } from '../../src/storage/database.js';
import { TxPool } from '../../src/txpool/pool.js';
import type { PoolEnv, PoolOptions } from '../../src/txpool/types.js';

export const CHAIN_ID = 31337n;
export const GWEI = 10n ** 9n;
export const ETH = 10n ** 18n;
export const SINK = '0x000000000000000000000000000000000000dEaD';
export const MNEMONIC = 'test test test test test test test test test test test junk';

const root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(MNEMONIC), "m/44'/60'/0'/0");
export const wallets: HDNodeWallet[] = Array.from({ length: 6 }, (_, i) => root.deriveChild(i));
export const addr = (i: number): string => wallets[i].address.toLowerCase();

export function osakaCommon() {
  return createCustomCommon({ chainId: Number(CHAIN_ID) }, Mainnet, { hardfork: Hardfork.Osaka });
}

export class FakeEnv implements PoolEnv {
  readonly common = osakaCommon();
  readonly accounts = new Map<string, { nonce: bigint; balance: bigint }>();
  gasLimit = 30_000_000n;
  baseFee = GWEI;

  constructor() {
    for (let i = 0; i < wallets.length; i++) this.set(i, { balance: 10_000n * ETH });
  }

  blockGasLimit(): bigint {
    return this.gasLimit;
  }

  nextBaseFee(): bigint {
    return this.baseFee;
  }

  async account(address: Address): Promise<{ nonce: bigint; balance: bigint }> {
    return { ...(this.accounts.get(address.toString()) ?? { nonce: 0n, balance: 0n }) };
  }

  set(i: number, patch: Partial<{ nonce: bigint; balance: bigint }>): void {
    const cur = this.accounts.get(addr(i)) ?? { nonce: 0n, balance: 0n };
    this.accounts.set(addr(i), { ...cur, ...patch });
  }
}

export interface Harness {
  db: Database;
  env: FakeEnv;
  pool: TxPool;
}

/** A pool over the journal section of a fresh database in memory. */
export async function harness(opts: PoolOptions = {}, env = new FakeEnv()): Promise<Harness> {
  const db = await openMemoryDatabase();
  const pool = await TxPool.open(db.pool, env, opts);
  return { db, env, pool };
}

export async function reopen(h: Harness, opts: PoolOptions = {}): Promise<TxPool> {
  return TxPool.open(h.db.pool, h.env, opts);
}

type Req = TransactionRequest & { type?: number };

/** Sign with sensible defaults per type: EIP-1559 unless `type` says otherwise. */
export async function sign(i: number, req: Req = {}): Promise<Uint8Array> {
  const type = req.type ?? 2;
  const base: TransactionRequest = { type, chainId: CHAIN_ID, to: SINK, value: 0n, gasLimit: 21_000n, nonce: 0 };
  if (type === 0 || type === 1) base.gasPrice = 2n * GWEI;
  else {
    base.maxFeePerGas = 2n * GWEI;
    base.maxPriorityFeePerGas = GWEI;
  }
  return getBytes(await wallets[i].signTransaction({ ...base, ...req }));
}

/** EIP-1559 tx with the given nonce and fees (in wei). */
export function tx1559(i: number, nonce: number, tip = GWEI, cap = 2n * GWEI, extra: Req = {}): Promise<Uint8Array> {
  return sign(i, { nonce, maxPriorityFeePerGas: tip, maxFeePerGas: cap, ...extra });
}

export async function rejects(p: Promise<unknown>, message: string | RegExp, code = -32000): Promise<PoolError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  expect(caught, 'expected a rejection').to.be.instanceOf(PoolError);
  const err = caught as PoolError;
  if (typeof message === 'string') expect(err.message).to.equal(message);
  else expect(err.message).to.match(message);
  expect(toRpcError(err)!.code).to.equal(code);
  return err;
}

/** Counters agree with content() and with each other. */
export function assertConsistent(pool: TxPool): void {
  const size = pool.size();
  const { pending, queued } = pool.content();
  const count = (m: Map<string, unknown[]>) => [...m.values()].reduce((n, l) => n + l.length, 0);
  expect(size.pending, 'pending').to.equal(count(pending));
  expect(size.queued, 'queued').to.equal(count(queued));
  expect(size.total, 'total').to.equal(size.pending + size.queued);
  expect(size.total).to.be.at.most(size.limit);
  for (const list of [...pending.values(), ...queued.values()]) {
    for (let k = 1; k < list.length; k++) expect(list[k].nonce > list[k - 1].nonce).to.equal(true);
    for (const p of list) expect(pool.get(p.hashHex)).to.equal(p);
  }
}

export const nonces = (list: { nonce: bigint }[] | undefined): number[] => (list ?? []).map((p) => Number(p.nonce));
