// Submitting to the node under test and waiting for it: receipts, throughput, the mining mode, an empty pool.
import { percentile, type RpcClient } from './client.js';
import type { Signed } from './signer.js';

export async function waitForReceipts(client: RpcClient, hashes: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const hash of hashes) {
    for (;;) {
      const receipt = await client.call<{ status: string } | null>('eth_getTransactionReceipt', [hash]);
      if (receipt !== null) {
        if (receipt.status !== '0x1') throw new Error(`transaction ${hash} failed`);
        break;
      }
      if (Date.now() > deadline) throw new Error(`no receipt for ${hash} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Sends `txs` through `concurrency` workers, then waits for the last transaction of each sender. */
export async function throughput(client: RpcClient, txs: Signed[], lastOfEachSender: string[], concurrency: number) {
  let next = 0;
  const start = performance.now();
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < txs.length) {
        const tx = txs[next++];
        const t0 = performance.now();
        const hash = await client.call<string>('eth_sendRawTransaction', [tx.raw]).catch((error: Error) => {
          if (/already known/.test(error.message)) return tx.hash; // a resend of one the node had taken
          throw error;
        });
        latencies.push(performance.now() - t0);
        if (hash !== tx.hash) throw new Error(`node answered hash ${hash} for ${tx.hash}`);
      }
    }),
  );
  const acked = (performance.now() - start) / 1000;
  await waitForReceipts(client, lastOfEachSender, 300_000);
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: txs.length / seconds, ackPerSecond: txs.length / acked, seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export async function setMode(client: RpcClient, mode: 'automine' | 'interval' | 'manual'): Promise<void> {
  await client.call('evm_setIntervalMining', [mode === 'interval' ? 1000 : 0]);
  await client.call('evm_setAutomine', [mode === 'automine']);
}

export async function drainPool(client: RpcClient): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const status = await client.call<{ pending: string; queued: string }>('txpool_status');
    if (Number(status.pending) === 0) return;
    await client.call('evm_mine');
  }
  throw new Error('the pool did not drain in 100 blocks');
}
