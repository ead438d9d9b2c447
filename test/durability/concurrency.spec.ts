// Many clients submitting at once to a node mining every second: for different senders (each
// pre-signing its nonces) and for one shared sender (wallets that pick their nonce with
// eth_getTransactionCount 'pending' and retry when another client took it). No transaction is
// lost, no nonce is used twice, every receipt is found.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { JsonRpcProvider, Wallet } from 'ethers';
import { createWalletClient, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { bytesToHex } from '@ethereumjs/util';
import { spawnNode, type ChildNode } from '../helpers/child-node.js';
import { rpc, RpcCallError } from '../helpers/rpc.js';
import { GWEI, inspect, signTransfer, sleep, SINK, waitFor, WALLETS } from './support.js';

const WALLETS_MANY = WALLETS.slice(1, 9);
const TXS_EACH = 25;
const SHARED = WALLETS[9];
/** Clients sharing SHARED: by kind, how many, and how many transfers each sends. */
const SHARED_CLIENTS = { raw: 3, ethers: 3, viem: 3 };
const SHARED_TXS_EACH = 6;
const MAX_FEE = 100n * GWEI;
const TIP = GWEI;

/** The errors a wallet answers by asking for a fresh nonce: someone else used the one it picked. */
const NONCE_TAKEN = /nonce too low|replacement transaction underpriced|already known|NONCE_EXPIRED|REPLACEMENT_UNDERPRICED/i;

function describeError(error: unknown): string {
  if (error instanceof RpcCallError) return error.message;
  const e = error as { message?: string; code?: string; details?: string; info?: unknown; shortMessage?: string };
  return [e.code, e.shortMessage, e.details, e.message, JSON.stringify(e.info ?? null)].filter(Boolean).join(' | ');
}

let collisions = 0;

/**
 * Sends one transfer with a fresh 'pending' nonce each try, until the node takes it. Clients that
 * keep losing the race back off further each time (with jitter), so on a loaded machine none
 * starves; only a client still refused after 40 s gives up.
 */
async function sendAsWallet(send: () => Promise<string>): Promise<string> {
  const deadline = Date.now() + 40_000;
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const text = describeError(error);
      if (!NONCE_TAKEN.test(text) || Date.now() > deadline) throw error;
      collisions++;
      await sleep(Math.random() * Math.min(250, 10 * 2 ** Math.min(attempt, 5)));
    }
  }
}

describe('durability: concurrent submissions in interval mode', function () {
  this.timeout(90_000);
  let dir: string;
  let node: ChildNode;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evm-node-concurrency-'));
    node = await spawnNode(dir, ['--block-time', '1']);
  });
  after(async () => {
    await node?.kill9();
    await rm(dir, { recursive: true, force: true });
  });

  it('loses no transaction, reuses no nonce, and finds every receipt', async () => {
    const url = node.url;
    const chain = defineChain({
      id: 31337,
      name: 'evm-node',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    const provider = new JsonRpcProvider(url, 31337, { staticNetwork: true, batchMaxCount: 1 });

    // Distinct senders: every transfer pre-signed, all sent at once.
    const presigned = WALLETS_MANY.flatMap((w) => Array.from({ length: TXS_EACH }, (_, n) => signTransfer(w, n)));
    const independent = Promise.all(presigned.map((tx) => rpc<string>(url, 'eth_sendRawTransaction', [tx.raw])));

    // One shared sender, three kinds of wallet, each picking its nonce as wallets do.
    const rawClient = (client: number) => async (k: number) =>
      sendAsWallet(async () => {
        const nonce = Number(await rpc<string>(url, 'eth_getTransactionCount', [SHARED.address, 'pending']));
        const tx = signTransfer(SHARED, nonce, { value: BigInt(1_000 + client * 100 + k) });
        return rpc<string>(url, 'eth_sendRawTransaction', [tx.raw]);
      });
    const ethersClient = (client: number) => {
      const wallet = new Wallet(bytesToHex(SHARED.privateKey), provider);
      return async (k: number) =>
        sendAsWallet(async () => {
          const sent = await wallet.sendTransaction({
            to: SINK,
            value: BigInt(2_000 + client * 100 + k),
            gasLimit: 21_000n,
            maxFeePerGas: MAX_FEE,
            maxPriorityFeePerGas: TIP,
            type: 2,
          });
          return sent.hash;
        });
    };
    const viemClient = (client: number) => {
      const wallet = createWalletClient({ account: privateKeyToAccount(bytesToHex(SHARED.privateKey) as `0x${string}`), chain, transport: http(url) });
      return async (k: number) =>
        sendAsWallet(() =>
          wallet.sendTransaction({ to: SINK, value: BigInt(3_000 + client * 100 + k), gas: 21_000n, maxFeePerGas: MAX_FEE, maxPriorityFeePerGas: TIP }),
        );
    };
    const clients = [
      ...Array.from({ length: SHARED_CLIENTS.raw }, (_, i) => rawClient(i)),
      ...Array.from({ length: SHARED_CLIENTS.ethers }, (_, i) => ethersClient(i)),
      ...Array.from({ length: SHARED_CLIENTS.viem }, (_, i) => viemClient(i)),
    ];
    const shared = Promise.all(
      clients.map(async (send) => {
        const hashes: string[] = [];
        for (let k = 0; k < SHARED_TXS_EACH; k++) hashes.push(await send(k));
        return hashes;
      }),
    );

    const independentHashes = await independent;
    expect(independentHashes).to.deep.equal(presigned.map((tx) => tx.hash));
    const sharedHashes = (await shared).flat();
    expect(new Set(sharedHashes).size, 'distinct shared-sender hashes').to.equal(clients.length * SHARED_TXS_EACH);
    provider.destroy();

    const acknowledged = [...independentHashes, ...sharedHashes];
    const receipts = new Map<string, { from: string; status: string }>();
    const allMined = await waitFor(async () => {
      for (const hash of acknowledged) {
        if (receipts.has(hash)) continue;
        const receipt = await rpc<{ from: string; status: string } | null>(url, 'eth_getTransactionReceipt', [hash]);
        if (receipt === null) return false;
        receipts.set(hash, receipt);
      }
      return true;
    }, 30_000, 250);
    expect(allMined, `receipts found: ${receipts.size} of ${acknowledged.length}`).to.equal(true);
    for (const receipt of receipts.values()) expect(receipt.status).to.equal('0x1');

    const senders = [...WALLETS_MANY, SHARED].map((w) => w.address);
    const snapshot = await inspect(url, senders);
    expect(snapshot.pooled.size, 'transactions left in the pool').to.equal(0);
    for (const hash of acknowledged) expect(snapshot.mined.has(hash), hash).to.equal(true);
    // Every nonce of the shared sender went to exactly one acknowledged transaction.
    const sharedMined = [...snapshot.mined.values()].filter((m) => m.from === SHARED.address).map((m) => m.nonce);
    expect(sharedMined.sort((a, b) => a - b)).to.deep.equal(Array.from({ length: sharedHashes.length }, (_, i) => i));
    expect(snapshot.head, 'blocks mined').to.be.greaterThan(1);
    if (process.env.DURABILITY_DEBUG) console.log(`${collisions} nonce collisions retried, ${snapshot.head} blocks`);
  });
});
