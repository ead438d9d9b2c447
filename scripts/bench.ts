#!/usr/bin/env node
// The benchmark (not a test): `npm run bench [-- --url http://127.0.0.1:8545]`.
//
// Against a running node (--url; its dev accounts must be the well-known test mnemonic's), or one
// it starts itself on a temp data dir. Everything is pre-signed with the dev keys before the clock
// starts; only loopback is ever called, and every loop is bounded in count and time.
//   1. eth_sendRawTransaction throughput to the last receipt: transfers from 10 senders, automine
//      and interval mining (1 s), and ERC-20 transfers in automine;
//   2. requests/s with p50/p99 at concurrency 16: eth_getBlockByNumber(latest, true) on a
//      100-transaction block, eth_getTransactionReceipt, eth_call (ERC-20 balanceOf), eth_getProof;
//   3. txpool_content latency with 2,000 pooled transactions;
//   4. the node's resident memory, when the benchmark started the node;
//   5. dev-node controls: a Hardhat-style fixture loop (evm_snapshot → eth_sendTransaction → receipt
//      → evm_revert) over raw JSON-RPC and through ethers, and anvil_mine of many empty blocks;
//   6. with --big-block N: N transfers pooled with mining off, then mined by evm_mine, timed per block;
//   7. tracing: debug_traceTransaction of a transfer at the end of a 5,000-transaction block (a node
//      of its own, with a gas limit that fits such a block), and how long other requests wait meanwhile.
// With --grow N, instead: the same reads on a 1,000-block chain and on one grown to N blocks (bench/scaling.ts).
// With --fork, instead: forking a seeded remote behind a proxy adding latency (bench/fork.ts).
// With --mine-run N,N,…, instead: one anvil_mine call of N empty blocks on a fresh node for each N,
// with the longest eth_blockNumber wait meanwhile and the peak memory (bench/mining-run.ts).
// With --heavy, instead: requests the caller can make large (traces, 1 MB calls and simulations), each
// on a node of its own, and the node's memory before, after and while idle (bench/heavy-requests.ts).
// With --dump N, instead: a state dump of N accounts loaded (--load-state), dumped (anvil_dumpState) and
// written as the node stops (--dump-state), with the time and peak memory of each (bench/state-dump.ts).
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { bigIntToUnpaddedBytes, bytesToHex, createAddressFromString, generateAddress } from '@ethereumjs/util';
import { deriveAccounts, DEV_MNEMONIC } from '../src/chain/dev-accounts.js';
import { closedLoop, RpcClient, type LoadResult } from './bench/client.js';
import { fixtureLoops, mineEmptyBlocks } from './bench/dev-controls.js';
import { measureForking } from './bench/fork.js';
import { measureHeavyRequests } from './bench/heavy-requests.js';
import { measureMining } from './bench/mining-run.js';
import { residentMemory, startOwnNode, withCpu, type NodeUnderTest } from './bench/node-process.js';
import { measureScaling } from './bench/scaling.js';
import { Signer, type Signed } from './bench/signer.js';
import { measureStateDump } from './bench/state-dump.js';
import { drainPool, setMode, throughput, waitForReceipts } from './bench/submission.js';
import { cpuNote, fmt, printRows, type Log, type Row } from './bench/table.js';
import { encodeBalanceOf, encodeConstructor, encodeTransfer } from './bench/token.js';
import { traceWorkload } from './bench/tracing.js';

const { values: flags } = parseArgs({
  options: {
    url: { type: 'string' },
    txs: { type: 'string', default: '5000' },
    'interval-txs': { type: 'string' },
    senders: { type: 'string', default: '10' },
    'erc20-txs': { type: 'string', default: '2000' },
    'block-txs': { type: 'string', default: '100' },
    pool: { type: 'string', default: '2000' },
    'big-block': { type: 'string', default: '5000' },
    'gas-limit': { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '5' },
    'idle-seconds': { type: 'string', default: '15' },
    'fixture-rounds': { type: 'string', default: '50' },
    'mine-blocks': { type: 'string', default: '10000' },
    'trace-txs': { type: 'string', default: '5000' },
    grow: { type: 'string' },
    'mine-run': { type: 'string' },
    dump: { type: 'string' },
    fork: { type: 'boolean' },
    'fork-holders': { type: 'string', default: '300' },
    'fork-clones': { type: 'string', default: '20' },
    'remote-latency-ms': { type: 'string', default: '25' },
    heavy: { type: 'boolean' },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (flags.help === true) {
  process.stdout.write(
    'usage: npm run bench -- [--url URL] [--txs 5000] [--interval-txs N (default --txs; 0 skips)] [--senders 10] [--erc20-txs 2000] [--block-txs 100] [--pool 2000]\n' +
      '                       [--big-block 5000 (0 skips)] [--gas-limit GAS (own node)]\n' +
      '                       [--concurrency 16] [--seconds 5] [--idle-seconds 15] [--fixture-rounds 50 (0 skips)] [--mine-blocks 10000 (0 skips)]\n' +
      '                       [--trace-txs 5000 (0 skips)] [--out results.json]\n' +
      '       npm run bench -- --grow 20000 [--concurrency 16] [--seconds 5] [--idle-seconds 15]\n' +
      '         reads on a 1,000-block chain, then on one grown to 20,000 blocks (2.5 transactions a block)\n' +
      '       npm run bench -- --fork [--fork-holders 300] [--fork-clones 20] [--remote-latency-ms 25] [--concurrency 16]\n' +
      '         a forking node reading a seeded remote through a proxy adding latency: cold, warm, after a restart\n' +
      '       npm run bench -- --heavy\n' +
      '         heavy requests (traces, 1 MB calls and simulations) and the memory the node gives back\n' +
      '       npm run bench -- --dump 100000\n' +
      '         a state dump of that many accounts: --load-state, anvil_dumpState, --dump-state, with time and peak memory\n',
  );
  process.exit(0);
}
const opt = {
  txs: Number(flags.txs),
  intervalTxs: Number(flags['interval-txs'] ?? flags.txs),
  senders: Number(flags.senders),
  erc20Txs: Number(flags['erc20-txs']),
  blockTxs: Number(flags['block-txs']),
  pool: Number(flags.pool),
  bigBlock: Number(flags['big-block']),
  gasLimit: flags['gas-limit'],
  concurrency: Number(flags.concurrency),
  seconds: Number(flags.seconds),
  idleSeconds: Number(flags['idle-seconds']),
  fixtureRounds: Number(flags['fixture-rounds']),
  mineBlocks: Number(flags['mine-blocks']),
  traceTxs: Number(flags['trace-txs']),
  grow: flags.grow === undefined ? undefined : Number(flags.grow),
  mineRun: flags['mine-run']?.split(',').map(Number),
};
if (opt.mineRun?.some((n) => !Number.isSafeInteger(n) || n < 1)) {
  process.stderr.write(`bench: --mine-run takes block counts, comma-separated (5000,20000), not ${flags['mine-run']}\n`);
  process.exit(2);
}

const rows: Row[] = [];
const log: Log = (message) => process.stderr.write(`bench: ${message}\n`);

/** A row for a closed-loop load: requests a second, p50 and p99, how many requests and the node's CPU each. */
function loadRow(workload: string, measured: { result: LoadResult; cpuUs?: number }): void {
  const { result, cpuUs } = measured;
  rows.push({ workload, result: `${fmt(result.perSecond)} req/s`, p50: result.p50, p99: result.p99, note: `${fmt(result.requests)} requests${cpuNote(cpuUs)}` });
}

async function main(): Promise<void> {
  if (opt.mineRun !== undefined) {
    await measureMining(opt.mineRun, log);
    return;
  }
  if (flags.dump !== undefined) {
    await measureStateDump(Number(flags.dump), log);
    return;
  }
  if (flags.fork === true) {
    await measureForking({ holders: Number(flags['fork-holders']), clones: Number(flags['fork-clones']), latencyMs: Number(flags['remote-latency-ms']), concurrency: opt.concurrency, log });
    return;
  }
  if (flags.heavy === true) {
    await measureHeavyRequests(log);
    return;
  }
  const own = flags.url === undefined ? await startOwnNode(opt.gasLimit === undefined ? [] : ['--gas-limit', opt.gasLimit]) : undefined;
  const node: NodeUnderTest = own ?? { url: flags.url!, stop: async () => {} };
  let client = new RpcClient(node.url, Math.max(opt.concurrency, 16));
  try {
    log(`node at ${node.url}${own !== undefined ? ` (pid ${own.pid}, started by the benchmark)` : ''}`);
    const senders = deriveAccounts(DEV_MNEMONIC, opt.senders);
    const signer = await Signer.forNode(client, senders);
    if (opt.grow !== undefined) {
      await measureScaling({ client, pid: own?.pid, senders, signer, blocks: opt.grow, concurrency: opt.concurrency, seconds: opt.seconds, idleSeconds: opt.idleSeconds, log });
      return;
    }

    // Everything signed up front, in the order it will be sent.
    const signStart = performance.now();
    const perSender = Math.ceil(opt.txs / opt.senders);
    const recipient = (s: number, k: number) => `0x${(0x1000n + BigInt(s * 1_000_000 + k)).toString(16).padStart(40, '0')}`;
    const automineTxs = signer.roundRobin(senders, perSender, (s, k) => ({ to: recipient(s, k), value: 1n }));
    const intervalTxs = signer.roundRobin(senders, Math.ceil(opt.intervalTxs / opt.senders), (s, k) => ({ to: recipient(s, k), value: 2n }));
    const deployer = senders[0];
    const token = bytesToHex(generateAddress(createAddressFromString(deployer.address).bytes, bigIntToUnpaddedBytes(signer.nextNonce(deployer))));
    const deploy = signer.sign(deployer, { data: encodeConstructor(10n ** 30n), gasLimit: 1_000_000n });
    const funding = senders.slice(1).map((s) => signer.sign(deployer, { to: token, data: encodeTransfer(s.address, 10n ** 24n), gasLimit: 100_000n }));
    const erc20Txs = signer.roundRobin(senders, Math.ceil(opt.erc20Txs / opt.senders), (s, k) => ({
      to: token,
      data: encodeTransfer(recipient(s, k), 1n),
      gasLimit: 100_000n,
    }));
    const blockTxs = signer.roundRobin(senders, Math.ceil(opt.blockTxs / opt.senders), (s, k) => ({ to: recipient(s, k), value: 3n })).slice(0, opt.blockTxs);
    const poolTxs = signer.roundRobin(senders, Math.ceil(opt.pool / opt.senders), (s, k) => ({ to: recipient(s, k), value: 4n }));
    const signed = automineTxs.length + intervalTxs.length + 1 + funding.length + erc20Txs.length + blockTxs.length + poolTxs.length;
    log(`signed ${signed} transactions in ${fmt((performance.now() - signStart) / 1000, 1)} s`);
    // Signing blocked this event loop, so the idle connections the node closed meanwhile look open: start afresh.
    client.close();
    client = new RpcClient(node.url, Math.max(opt.concurrency, 16));
    const lastOf = (txs: Signed[]) => txs.slice(-opt.senders).map((t) => t.hash);

    // 1. Submission throughput.
    await setMode(client, 'automine');
    log(`${automineTxs.length} transfers, automine…`);
    const pid = own?.pid;
    const sent = (txs: Signed[]) => () => throughput(client, txs, lastOf(txs), opt.concurrency);
    let { result: t, cpuUs } = await withCpu(pid, () => automineTxs.length, sent(automineTxs));
    rows.push({ workload: `ETH transfers, automine (${automineTxs.length}, ${opt.senders} senders)`, result: `${fmt(t.perSecond)} tx/s`, p50: t.p50, p99: t.p99, note: `to last receipt, ${fmt(t.seconds, 1)} s${cpuNote(cpuUs)}` });

    if (intervalTxs.length > 0) {
      await setMode(client, 'interval');
      log(`${intervalTxs.length} transfers, interval mining…`);
      ({ result: t, cpuUs } = await withCpu(pid, () => intervalTxs.length, sent(intervalTxs)));
      rows.push({ workload: `ETH transfers, interval 1 s (${intervalTxs.length})`, result: `${fmt(t.perSecond)} tx/s`, p50: t.p50, p99: t.p99, note: `to last receipt, ${fmt(t.seconds, 1)} s; admission ${fmt(t.ackPerSecond)} tx/s${cpuNote(cpuUs)}` });
    }

    await setMode(client, 'automine');
    await client.call('eth_sendRawTransaction', [deploy.raw]);
    await Promise.all(funding.map((f) => client.call('eth_sendRawTransaction', [f.raw])));
    await waitForReceipts(client, [deploy.hash, ...funding.map((f) => f.hash)], 60_000);
    log(`${erc20Txs.length} ERC-20 transfers, automine…`);
    ({ result: t, cpuUs } = await withCpu(pid, () => erc20Txs.length, sent(erc20Txs)));
    rows.push({ workload: `ERC-20 transfers, automine (${erc20Txs.length})`, result: `${fmt(t.perSecond)} tx/s`, p50: t.p50, p99: t.p99, note: `to last receipt, ${fmt(t.seconds, 1)} s${cpuNote(cpuUs)}` });

    // 2. Reads, on a block of `blockTxs` transactions that stays the head.
    await setMode(client, 'manual');
    await Promise.all(blockTxs.map((tx) => client.call('eth_sendRawTransaction', [tx.raw])));
    await client.call('evm_mine');
    const head = await client.call<{ number: string; transactions: string[] }>('eth_getBlockByNumber', ['latest', false]);
    if (head.transactions.length !== blockTxs.length) throw new Error(`head holds ${head.transactions.length} transactions, not ${blockTxs.length}`);
    const c = opt.concurrency;
    const max = 500_000;
    log(`reads at concurrency ${c}, ${opt.seconds} s each…`);
    const load = async (request: (i: number) => Promise<unknown>) => {
      await closedLoop(c, 1, 200, request, 0); // warm-up, not counted
      return withCpu(pid, (r: LoadResult) => r.requests, () => closedLoop(c, opt.seconds, max, request, 0));
    };
    // The reads that should cost the same on a long chain as on a fresh one (step 6 measures them again).
    const chainReads = async (suffix: string) => {
      loadRow(`eth_getTransactionReceipt${suffix}`, await load((i) => client.call('eth_getTransactionReceipt', [head.transactions[i % head.transactions.length]])));
      loadRow(`eth_call ERC-20 balanceOf${suffix}`, await load((i) => client.call('eth_call', [{ to: token, data: encodeBalanceOf(senders[i % senders.length].address) }, 'latest'])));
      loadRow(`eth_getProof (account, no slots)${suffix}`, await load((i) => client.call('eth_getProof', [senders[i % senders.length].address, [], 'latest'])));
    };
    loadRow(`eth_getBlockByNumber(latest, true), ${blockTxs.length} txs`, await load(() => client.call('eth_getBlockByNumber', ['latest', true])));
    await chainReads('');
    loadRow('eth_blockNumber (transport floor)', await load(() => client.call('eth_blockNumber')));

    // 3. txpool_content with a full pool, one request at a time.
    log(`txpool_content with ${poolTxs.length} pooled…`);
    for (let i = 0; i < poolTxs.length; i += 64) await Promise.all(poolTxs.slice(i, i + 64).map((tx) => client.call('eth_sendRawTransaction', [tx.raw])));
    const status = await client.call<{ pending: string }>('txpool_status');
    const pooled = await closedLoop(1, opt.seconds, 200, () => client.call('txpool_content'), 3);
    rows.push({ workload: `txpool_content, ${Number(status.pending)} pooled`, result: `${fmt(pooled.p50, 1)} ms`, p50: pooled.p50, p99: pooled.p99, note: `${pooled.requests} requests, one at a time` });
    // 4. Memory: with the pool full, then after the run (pool mined).
    const memoryRow: Row = { workload: 'node resident memory (VmRSS)', result: 'n/a', note: 'not measured for a node given by --url' };
    rows.push(memoryRow);
    const full = own?.pid === undefined ? undefined : await residentMemory(own.pid);
    if (full !== undefined) Object.assign(memoryRow, { result: `${fmt(full.rss)} MiB`, note: `with ${poolTxs.length} pooled` });
    await drainPool(client);
    const after = own?.pid === undefined ? undefined : await residentMemory(own.pid);
    if (full !== undefined && after !== undefined) {
      Object.assign(memoryRow, { result: `${fmt(after.rss)} MiB`, note: `after the run; ${fmt(full.rss)} MiB with ${poolTxs.length} pooled, peak (VmHWM) ${fmt(after.peak)} MiB` });
      // V8 gives memory back once the process has been idle a while (its memory reducer): see how much.
      await new Promise((resolve) => setTimeout(resolve, opt.idleSeconds * 1000));
      const idle = await residentMemory(own!.pid!);
      if (idle !== undefined && opt.idleSeconds > 0) memoryRow.note += `; ${fmt(idle.rss)} MiB after ${opt.idleSeconds} s idle`;
    }

    // 5. One big block: transfers pooled with mining off, then evm_mine until the pool is empty.
    if (opt.bigBlock > 0) {
      await setMode(client, 'manual');
      const bigTxs = signer.roundRobin(senders, Math.ceil(opt.bigBlock / opt.senders), (s, k) => ({ to: recipient(s, 500_000 + k), value: 5n })).slice(0, opt.bigBlock);
      log(`${bigTxs.length} transfers pooled, then evm_mine…`);
      for (let i = 0; i < bigTxs.length; i += 64) await Promise.all(bigTxs.slice(i, i + 64).map((tx) => client.call('eth_sendRawTransaction', [tx.raw])));
      const mined = await withCpu(pid, (r: { txs: number }) => r.txs, async () => {
        const perBlock: number[] = [];
        let txs = 0;
        for (let blocks = 0; blocks < 100 && txs < bigTxs.length; blocks++) {
          const t0 = performance.now();
          await client.call('evm_mine');
          perBlock.push(performance.now() - t0);
          txs += (await client.call<{ transactions: string[] }>('eth_getBlockByNumber', ['latest', false])).transactions.length;
        }
        return { txs, perBlock };
      });
      const { txs, perBlock } = mined.result;
      const total = perBlock.reduce((a, b) => a + b, 0);
      rows.push({
        workload: `evm_mine of ${bigTxs.length} pooled transfers`,
        result: `${fmt((txs / total) * 1000)} tx/s`,
        note: `${perBlock.length} block(s) of up to ${fmt(Math.ceil(txs / perBlock.length))} txs, ${perBlock.map((ms) => fmt(ms)).join(' + ')} ms${cpuNote(mined.cpuUs)}`,
      });
    }

    await setMode(client, 'automine');

    // 6. Dev-node controls.
    if (opt.fixtureRounds > 0) await fixtureLoops(client, node.url, pid, senders[1].address, opt.fixtureRounds, rows, log);
    if (opt.mineBlocks > 0) await mineEmptyBlocks(client, pid, opt.mineBlocks, rows, log);
  } finally {
    client.close();
    await node.stop();
  }
  if (opt.traceTxs > 0 && own === undefined) rows.push({ workload: 'tracing', result: 'n/a', note: 'needs a node of its own (no --url)' });
  else if (opt.traceTxs > 0) await traceWorkload(opt.traceTxs, rows, log);
  printRows(rows);
  if (flags.out !== undefined) await writeFile(flags.out, JSON.stringify({ options: opt, rows }, null, 2));
}

main().catch((error) => {
  printRows(rows);
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
