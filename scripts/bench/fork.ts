// `npm run bench -- --fork`: forking, measured against a remote on this machine. A remote node is
// seeded with a token and its holders; a proxy in front of it adds latency to each HTTP request and
// counts what reaches the remote; a forking node then reads every holder's balance cold, again warm,
// as many other holders' cold (the same cold reads in a process whose JIT has compiled the path),
// contracts of the token's code, one call reading many cold balances (a multicall), and once more
// after a restart on the same fork cache.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedLoop, RpcClient } from './client.js';
import { startOwnNode, withCpu } from './node-process.js';
import { fmt, printTable } from './table.js';
import { BENCH_READER_BYTECODE, encodeAllowance, encodeBalanceOf, encodeBalancesOf, encodeConstructor, encodeTransfer, SELECTORS } from './token.js';

export interface ForkBenchOptions {
  holders: number;
  /** contracts of the token's code besides it, each read at the same few slots (what prefetch by code serves) */
  clones?: number;
  latencyMs: number;
  concurrency: number;
  log(message: string): void;
}

const DEV = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
/** Balances the multicall phase reads in one call. */
const MULTICALL_READS = 100;
const holderAt = (i: number) => `0x${(0xb0b0000n + BigInt(i)).toString(16).padStart(40, '0')}`;

/** What reached the remote through the proxy: HTTP requests and JSON-RPC calls. */
interface Reached {
  http: number;
  calls: number;
}

/** A proxy that holds each request `latencyMs` before passing it on, counting what passes. */
async function latencyProxy(target: string, latencyMs: number): Promise<{ url: string; take(): Reached; close(): Promise<void> }> {
  let reached: Reached = { http: 0, calls: 0 };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const parsed = JSON.parse(body) as unknown;
    reached.http++;
    reached.calls += Array.isArray(parsed) ? parsed.length : 1;
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    take: () => {
      const taken = reached;
      reached = { http: 0, calls: 0 };
      return taken;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function measureForking({ holders, clones = 20, latencyMs, concurrency, log }: ForkBenchOptions): Promise<void> {
  const remote = await startOwnNode();
  const cacheDir = await mkdtemp(join(tmpdir(), 'evm-node-bench-fork-cache-'));
  const proxy = await latencyProxy(remote.url, latencyMs);
  try {
    const origin = new RpcClient(remote.url, 16);
    await origin.call('evm_setAutomine', [false]);
    await origin.call('eth_sendTransaction', [{ from: DEV, data: encodeConstructor(10n ** 30n), gas: '0x100000' }]);
    await origin.call('evm_mine', []);
    const token = (await origin.call<{ contractAddress: string }[]>('eth_getBlockReceipts', ['latest']))[0].contractAddress;
    // Two rounds of cold reads, then the multicall's holders.
    const seeded = 2 * holders + MULTICALL_READS;
    for (let i = 0; i < seeded; i += 200) {
      for (let k = i; k < Math.min(seeded, i + 200); k++) await origin.call('eth_sendTransaction', [{ from: DEV, to: token, data: encodeTransfer(holderAt(k), BigInt(k + 1)), gas: '0x20000' }]);
      await origin.call('evm_mine', []);
    }
    for (let i = 0; i < clones; i++) await origin.call('eth_sendTransaction', [{ from: DEV, data: encodeConstructor(10n ** 24n + BigInt(i)), gas: '0x100000' }]);
    await origin.call('eth_sendTransaction', [{ from: DEV, data: BENCH_READER_BYTECODE, gas: '0x100000' }]);
    await origin.call('evm_mine', []);
    const deployed = (await origin.call<{ contractAddress: string }[]>('eth_getBlockReceipts', ['latest'])).map((receipt) => receipt.contractAddress);
    const cloneAddresses = deployed.slice(0, clones);
    const reader = deployed[clones];
    const forkBlock = await origin.call<string>('eth_blockNumber', []);
    log(`remote seeded: ${seeded} holders by block ${BigInt(forkBlock)}; ${latencyMs} ms per remote request`);
    const rows: string[][] = [];
    /** Reads the balances of `holders` holders from the `first`th on. */
    const readAll = async (node: { url: string; pid?: number }, phase: string, first = 0) => {
      const client = new RpcClient(node.url, concurrency);
      proxy.take();
      const { result, cpuUs } = await withCpu(node.pid, () => holders, () => closedLoop(concurrency, 600, holders, (i) => client.call('eth_call', [{ to: token, data: encodeBalanceOf(holderAt(first + i)) }, 'latest']), 0));
      const reached = proxy.take();
      rows.push([phase, fmt(result.perSecond), fmt(result.p50, 1), fmt(result.p99, 1), cpuUs === undefined ? '—' : fmt(cpuUs), fmt(reached.http), fmt(reached.calls)]);
      client.close();
    };
    const flags = ['--fork-url', proxy.url, '--fork-block-number', String(BigInt(forkBlock)), '--fork-cache-dir', cacheDir, '--no-mining'];
    proxy.take();
    let fork = await startOwnNode(flags, { inMemory: true });
    const started = proxy.take();
    rows.push(['start-up', '—', '—', '—', '—', fmt(started.http), fmt(started.calls)]);
    await readAll(fork, `cold: ${holders} balanceOf`);
    await readAll(fork, 'warm: the same again');
    await readAll(fork, `cold: ${holders} other holders`, holders);
    {
      // One client reads each clone at the slots the others were read at: its total supply, the
      // deployer's balance and an allowance, then estimates a transfer (two balances in one call).
      const client = new RpcClient(fork.url, 1);
      proxy.take();
      const start = performance.now();
      for (const clone of cloneAddresses) {
        await client.call('eth_call', [{ to: clone, data: SELECTORS.totalSupply }, 'latest']);
        await client.call('eth_call', [{ to: clone, data: encodeBalanceOf(DEV) }, 'latest']);
        await client.call('eth_call', [{ to: clone, data: encodeAllowance(DEV, holderAt(0)) }, 'latest']);
        await client.call('eth_estimateGas', [{ from: DEV, to: clone, data: encodeTransfer(holderAt(1), 1n) }]);
      }
      const ms = (performance.now() - start) / cloneAddresses.length;
      const reached = proxy.take();
      rows.push([`${cloneAddresses.length} contracts of one code, 4 reads each`, `${fmt(ms, 1)} ms/contract`, '—', '—', '—', fmt(reached.http), fmt(reached.calls)]);
      client.close();
    }
    {
      // One call reads the balances of holders not read yet, one after another, as a multicall
      // does; the EVM meets each slot in turn.
      const client = new RpcClient(fork.url, 1);
      proxy.take();
      const start = performance.now();
      await client.call('eth_call', [{ to: reader, data: encodeBalancesOf(token, Array.from({ length: MULTICALL_READS }, (_, i) => holderAt(2 * holders + i))) }, 'latest']);
      const ms = performance.now() - start;
      const reached = proxy.take();
      rows.push([`one call reading ${MULTICALL_READS} cold balances`, `${fmt(ms, 1)} ms`, '—', '—', '—', fmt(reached.http), fmt(reached.calls)]);
      client.close();
    }
    await fork.stop();
    fork = await startOwnNode(flags, { inMemory: true });
    const restarted = proxy.take();
    rows.push(['restart on the same fork cache', '—', '—', '—', '—', fmt(restarted.http), fmt(restarted.calls)]);
    await readAll(fork, 'reads after the restart');
    await fork.stop();
    printTable(['forking (eth_call at concurrency ' + concurrency + ')', 'req/s', 'p50 ms', 'p99 ms', 'node CPU µs/read', 'remote HTTP', 'remote calls'], rows, new Set([1, 2, 3, 4, 5, 6]));
    origin.close();
  } finally {
    await proxy.close();
    await remote.stop();
    await rm(cacheDir, { recursive: true, force: true });
  }
}
