// Tracing: debug_traceTransaction and debug_traceBlockByNumber in a big block, and what other requests wait meanwhile.
import { deriveAccounts, DEV_MNEMONIC } from '../../src/chain/dev-accounts.js';
import { RpcClient } from './client.js';
import { startOwnNode, withCpu } from './node-process.js';
import { Signer } from './signer.js';
import { fmt, type Log, type Row } from './table.js';

/**
 * debug_traceTransaction of the last transfer of a block of `count` transfers (10 senders), on a
 * node of its own whose gas limit fits the block: the first trace (cold caches) and the median of
 * five more, the call tracer, the whole block with the call tracer, and the longest an
 * eth_blockNumber waited while a trace ran (the replay yields to other requests as it goes).
 */
export async function traceWorkload(count: number, rows: Row[], log: Log): Promise<void> {
  const traced = await startOwnNode(['--no-mining', '--gas-limit', String(BigInt(count) * 21_000n + 1_000_000n)]);
  const client = new RpcClient(traced.url, 16);
  try {
    const senders = deriveAccounts(DEV_MNEMONIC, 10);
    const signer = await Signer.forNode(client, senders);
    const txs = signer.roundRobin(senders, Math.ceil(count / senders.length), (s, k) => ({ to: `0x${(0x2000n + BigInt(s * 1_000_000 + k)).toString(16).padStart(40, '0')}`, value: 1n })).slice(0, count);
    for (let i = 0; i < txs.length; i += 64) await Promise.all(txs.slice(i, i + 64).map((tx) => client.call('eth_sendRawTransaction', [tx.raw])));
    await client.call('evm_mine');
    const block = await client.call<{ number: string; transactions: string[] }>('eth_getBlockByNumber', ['latest', false]);
    if (block.transactions.length !== count) throw new Error(`the traced block holds ${block.transactions.length} transactions, not ${count}`);
    const last = block.transactions.at(-1)!;
    const timed = async (method: string, params: unknown[]) => {
      const t0 = performance.now();
      await client.call(method, params);
      return performance.now() - t0;
    };
    /** Wall time and the node's CPU time (which other work on the machine barely moves), in ms. */
    const measured = async (method: string, params: unknown[]) => {
      const { result, cpuUs } = await withCpu(traced.pid, () => 1, () => timed(method, params));
      return { ms: result, cpuMs: cpuUs === undefined ? undefined : cpuUs / 1000 };
    };
    const cpuNoteMs = (cpuMs: number | undefined) => (cpuMs === undefined ? '' : `node CPU ${fmt(cpuMs)} ms`);
    log(`tracing in a ${count}-transaction block…`);
    const cold = await measured('debug_traceTransaction', [last]);
    const warm: { ms: number; cpuMs?: number }[] = [];
    for (let i = 0; i < 5; i++) warm.push(await measured('debug_traceTransaction', [last]));
    warm.sort((a, b) => a.ms - b.ms);
    const median = warm[2];
    rows.push({
      workload: `debug_traceTransaction, last of ${count} txs (struct logger)`,
      result: `${fmt(cold.ms)} ms first`,
      p50: median.ms,
      note: `${cpuNoteMs(cold.cpuMs)} first; then median of 5 ${fmt(median.ms)} ms, ${cpuNoteMs(median.cpuMs)}`,
    });
    const call = await measured('debug_traceTransaction', [last, { tracer: 'callTracer' }]);
    rows.push({ workload: `debug_traceTransaction, last of ${count} txs (callTracer)`, result: `${fmt(call.ms)} ms`, note: cpuNoteMs(call.cpuMs) });
    const whole = await measured('debug_traceBlockByNumber', [block.number, { tracer: 'callTracer' }]);
    rows.push({ workload: `debug_traceBlockByNumber, ${count} txs (callTracer)`, result: `${fmt(whole.ms)} ms`, note: cpuNoteMs(whole.cpuMs) });
    // Others are served while a trace replays: the longest an eth_blockNumber waited meanwhile.
    let tracing = true;
    let longest = 0;
    const trace = client.call('debug_traceTransaction', [last]).finally(() => (tracing = false));
    while (tracing) longest = Math.max(longest, await timed('eth_blockNumber', []));
    await trace;
    rows.push({ workload: 'eth_blockNumber while a trace replays', result: `${fmt(longest, 1)} ms longest`, note: `one request at a time, during a trace of the last of ${count} txs` });
  } finally {
    client.close();
    await traced.stop();
  }
}
