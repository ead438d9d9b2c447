// Shared by the kill -9 and concurrency specs: dev wallets, signing, a submitter that records
// acknowledgements, and a checker for the invariants a chain and pool must hold after a crash.
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createTx, type TypedTxData } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { expect } from 'chai';
import { premergeLibraryParams } from '../../src/chain/common-params.js';
import { deriveAccounts, DEV_MNEMONIC, type DevAccount } from '../../src/chain/dev-accounts.js';
import { nativeCrypto } from '../../src/crypto/native.js';
import { rpc, RpcCallError } from '../helpers/rpc.js';

export const GWEI = 10n ** 9n;
export const SINK = '0x000000000000000000000000000000000000dead';
/** The 20 funded dev accounts, as the node derives them. */
export const WALLETS: DevAccount[] = deriveAccounts(DEV_MNEMONIC, 20);

// Signing thousands of transactions: the node's native crypto and pre-merged params make it ~8x cheaper.
const common = premergeLibraryParams(createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: Hardfork.Osaka, customCrypto: nativeCrypto }));

export interface SignedTx {
  raw: string;
  hash: string;
  from: string;
  nonce: number;
}

export interface TransferOptions {
  /** 0 legacy, 1 EIP-2930, 2 EIP-1559 (default) */
  type?: 0 | 1 | 2;
  maxFeeGwei?: bigint;
  tipGwei?: bigint;
  value?: bigint;
  to?: string;
}

/** A signed value transfer from `wallet` with `nonce`; fees high enough for any base fee a test reaches. */
export function signTransfer(wallet: DevAccount, nonce: number, opts: TransferOptions = {}): SignedTx {
  const type = opts.type ?? 2;
  const fee = (opts.maxFeeGwei ?? 100n) * GWEI;
  const data: TypedTxData = {
    type,
    nonce: BigInt(nonce),
    gasLimit: 21_000n,
    to: (opts.to ?? SINK) as `0x${string}`,
    value: opts.value ?? BigInt(nonce + 1),
    ...(type === 2 ? { maxFeePerGas: fee, maxPriorityFeePerGas: (opts.tipGwei ?? 1n) * GWEI } : { gasPrice: fee }),
    ...(type === 0 ? {} : { chainId: 31337n, accessList: [] }),
  } as TypedTxData;
  const tx = createTx(data, { common }).sign(wallet.privateKey);
  return { raw: bytesToHex(tx.serialize()), hash: bytesToHex(tx.hash()), from: wallet.address, nonce };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The node answered with an error (as opposed to dying, which fetch reports as a TypeError). */
export const isRpcError = (error: unknown): error is RpcCallError => error instanceof RpcCallError;

/**
 * Sends `txs` of each sender in nonce order, `window` at a time per sender, all senders at once,
 * until every one is sent or `stop()` says so; records each hash the node acknowledged. Requests
 * that die with the node are neither acknowledged nor errors.
 */
export async function stream(url: string, bySender: SignedTx[][], window: number, stop: () => boolean, acked: Set<string>): Promise<void> {
  await Promise.all(
    bySender.map(async (txs) => {
      let next = 0;
      const lane = async () => {
        while (next < txs.length && !stop()) {
          const tx = txs[next++];
          try {
            const hash = await rpc<string>(url, 'eth_sendRawTransaction', [tx.raw]);
            expect(hash).to.equal(tx.hash);
            acked.add(tx.hash);
          } catch (error) {
            if (isRpcError(error)) throw error;
            return; // the connection died with the node
          }
        }
      };
      await Promise.all(Array.from({ length: window }, lane));
    }),
  );
}

export interface PoolEntry {
  hash: string;
  from: string;
  nonce: number;
  category: 'pending' | 'queued';
}

export interface ChainSnapshot {
  head: number;
  /** hash → (block number, sender, nonce) of every mined transaction */
  mined: Map<string, { block: number; from: string; nonce: number }>;
  /** hash → pool entry */
  pooled: Map<string, PoolEntry>;
}

type RpcTx = { hash: string; from: string; nonce: string };
type RpcBlock = { number: string; stateRoot: string; transactions: RpcTx[] };
type RpcReceipt = { transactionHash: string; blockNumber: string; status: string; from: string };
type PoolGroups = Record<string, Record<string, { hash: string; from: string; nonce: string }>>;

/**
 * Reads the whole chain and pool of a node that is not mining, and checks what must hold whatever
 * happened before: every block's receipts readable and matching its transactions, the head's state
 * readable, no (sender, nonce) mined twice, no transaction both mined and pooled, pooled nonces
 * above the state nonce, pending runs contiguous from it and queued ones beyond a gap.
 */
export async function inspect(url: string, senders: string[]): Promise<ChainSnapshot> {
  const head = Number(await rpc<string>(url, 'eth_blockNumber'));
  const mined = new Map<string, { block: number; from: string; nonce: number }>();
  const minedNonces = new Map<string, Set<number>>();
  for (let n = 0; n <= head; n++) {
    const block = await rpc<RpcBlock>(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, true]);
    expect(block, `block ${n}`).to.not.equal(null);
    const receipts = await rpc<RpcReceipt[] | null>(url, 'eth_getBlockReceipts', [`0x${n.toString(16)}`]);
    expect(receipts, `receipts of block ${n}`).to.be.an('array').with.length(block.transactions.length);
    block.transactions.forEach((tx, i) => {
      expect(receipts![i].transactionHash).to.equal(tx.hash);
      expect(receipts![i].status).to.equal('0x1');
      expect(mined.has(tx.hash), `${tx.hash} mined twice`).to.equal(false);
      const from = tx.from.toLowerCase();
      const nonce = Number(tx.nonce);
      const seen = minedNonces.get(from) ?? new Set<number>();
      expect(seen.has(nonce), `${from} nonce ${nonce} mined twice`).to.equal(false);
      seen.add(nonce);
      minedNonces.set(from, seen);
      mined.set(tx.hash, { block: n, from, nonce });
    });
  }
  // The head's state is readable: a proof walks the trie from its root.
  const proof = await rpc<{ balance: string }>(url, 'eth_getProof', [WALLETS[0].address, [], 'latest']);
  expect(proof.balance).to.match(/^0x/);

  const content = await rpc<{ pending: PoolGroups; queued: PoolGroups; txCount: number; readyTxCount: number; notReadyTxCount: number }>(
    url,
    'txpool_content',
  );
  const pooled = new Map<string, PoolEntry>();
  for (const category of ['pending', 'queued'] as const) {
    for (const [sender, byNonce] of Object.entries(content[category])) {
      for (const [nonce, tx] of Object.entries(byNonce)) {
        expect(Number(tx.nonce)).to.equal(Number(nonce));
        expect(mined.has(tx.hash), `${tx.hash} both mined and pooled`).to.equal(false);
        expect(pooled.has(tx.hash), `${tx.hash} pooled twice`).to.equal(false);
        pooled.set(tx.hash, { hash: tx.hash, from: sender.toLowerCase(), nonce: Number(nonce), category });
      }
    }
  }
  expect(content.txCount).to.equal(pooled.size);
  expect(content.readyTxCount + content.notReadyTxCount).to.equal(pooled.size);

  for (const sender of new Set([...senders, ...[...pooled.values()].map((p) => p.from)])) {
    const stateNonce = Number(await rpc<string>(url, 'eth_getTransactionCount', [sender, 'latest']));
    // What was mined from the sender is exactly nonces 0…stateNonce-1.
    const minedFrom = [...(minedNonces.get(sender) ?? [])].sort((a, b) => a - b);
    expect(minedFrom, `mined nonces of ${sender}`).to.deep.equal(Array.from({ length: stateNonce }, (_, i) => i));
    const mine = [...pooled.values()].filter((p) => p.from === sender).sort((a, b) => a.nonce - b.nonce);
    let expected = stateNonce;
    for (const entry of mine) {
      expect(entry.nonce, `pooled nonce of ${sender} at or above its state nonce`).to.be.at.least(stateNonce);
      const category = entry.nonce === expected ? 'pending' : 'queued';
      if (category === 'pending') expected++;
      expect(entry.category, `${sender} nonce ${entry.nonce} (state nonce ${stateNonce})`).to.equal(category);
    }
    const pendingCount = Number(await rpc<string>(url, 'eth_getTransactionCount', [sender, 'pending']));
    expect(pendingCount, `pending nonce of ${sender}`).to.equal(expected);
  }
  return { head, mined, pooled };
}

/** Polls until `check` is true or `timeoutMs` passes; returns the last answer. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}
