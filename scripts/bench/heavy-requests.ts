// Heavy requests (`npm run bench -- --heavy`): what one request the caller can make large costs the
// node, and whether the node gives the memory back. Each on a node of its own, fresh (it has run one
// call, so the VM library is loaded) or after a warm-up of ordinary requests; the node's resident
// memory before the request, right after its answer, and 5, 10 and 20 s later with nothing else asked.
//   - the struct trace (enableMemory, timeout 60s) of a loop over 1 MiB of memory: past the default
//     budget, answered -32003 (the time to that answer);
//   - a struct trace of a plain loop whose JSON is ~115 MB, within the budget;
//   - twenty eth_calls, each returning 1 MB;
//   - twenty eth_simulateV1, each with one call returning 1 MB.
import { RpcClient, RpcFailure } from './client.js';
import { residentMemory, startOwnNode } from './node-process.js';
import { fmt, printTable } from './table.js';

const DEV = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const PROBE = '0x00000000000000000000000000000000000c0de4';
/** MSTORE at 1 MiB - 32, then MLOAD in a loop until the gas runs out. */
const MEMORY_LOOP = '0x6001620fffe0525b60005150600756';
/** JUMPDEST, PUSH1 0, JUMP until the gas runs out: a struct log of ~90 bytes an opcode, 4 gas each. */
const LOOP = '0x5b600056';
/** Returns 1 MB of zeros. */
const RETURNS_MEGABYTE = '0x621000006000f3';
const IDLE_SECONDS = [5, 10, 20];

interface Heavy {
  name: string;
  /** what the request needs on the chain, made before memory is measured */
  prepare?(client: RpcClient): Promise<string>;
  /** runs the request(s); answers what the answer was */
  run(client: RpcClient, prepared: string | undefined): Promise<string>;
}

const HEAVY: Heavy[] = [
  {
    name: 'struct trace of a loop over 1 MiB of memory (enableMemory, timeout 60s)',
    prepare: (client) => client.call<string>('eth_sendTransaction', [{ from: DEV, data: MEMORY_LOOP, gas: '0x2dc6c0' }]),
    run: async (client, hash) => {
      const started = performance.now();
      try {
        await client.call('debug_traceTransaction', [hash, { enableMemory: true, timeout: '60s' }]);
        return 'answered';
      } catch (error) {
        if (!(error instanceof RpcFailure)) throw error;
        return `${error.code} in ${fmt((performance.now() - started) / 1000, 2)} s`;
      }
    },
  },
  {
    name: 'struct trace of ~1.6 million opcodes (~115 MB of JSON, within the budget)',
    run: async (client) => {
      const started = performance.now();
      const params = [{ to: PROBE, gas: '0x632ea0' }, 'latest', { stateOverrides: { [PROBE]: { code: LOOP } }, timeout: '60s' }];
      const text = await client.post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceCall', params }));
      const seconds = (performance.now() - started) / 1000;
      const trace = (JSON.parse(text) as { result: { structLogs: unknown[] } }).result;
      return `${fmt(trace.structLogs.length)} entries, ${fmt(text.length / 1e6)} MB, in ${fmt(seconds, 1)} s`;
    },
  },
  {
    name: 'twenty eth_calls returning 1 MB each',
    run: async (client) => {
      for (let i = 0; i < 20; i++) await client.call('eth_call', [{ to: PROBE, gas: '0x1000000' }, 'latest', { [PROBE]: { code: RETURNS_MEGABYTE } }]);
      return 'answered';
    },
  },
  {
    name: 'twenty eth_simulateV1 with a call returning 1 MB',
    run: async (client) => {
      for (let i = 0; i < 20; i++) {
        await client.call('eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: { [PROBE]: { code: RETURNS_MEGABYTE } }, calls: [{ from: DEV, to: PROBE, gas: '0x1000000' }] }] }, 'latest']);
      }
      return 'answered';
    },
  },
];

/** Ordinary use before the heavy request: transfers mined one by one, calls, block reads. */
async function warmUp(client: RpcClient): Promise<void> {
  for (let i = 0; i < 100; i++) await client.call('eth_sendTransaction', [{ from: DEV, to: '0x00000000000000000000000000000000000000bb', value: '0x1' }]);
  for (let i = 0; i < 500; i++) await client.call('eth_call', [{ to: '0x00000000000000000000000000000000000000bb' }, 'latest']);
  for (let i = 0; i < 100; i++) await client.call('eth_getBlockByNumber', ['latest', true]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measureOne(heavy: Heavy, warm: boolean, log: (message: string) => void): Promise<string[]> {
  const node = await startOwnNode();
  const client = new RpcClient(node.url, 1, 180_000);
  const rss = async () => (await residentMemory(node.pid))?.rss ?? NaN;
  try {
    log(`${heavy.name}, ${warm ? 'after a warm-up' : 'fresh node'} (pid ${node.pid})…`);
    await client.call('eth_call', [{ to: DEV }, 'latest']);
    if (warm) await warmUp(client);
    const prepared = await heavy.prepare?.(client);
    await sleep(3_000);
    const before = await rss();
    const answer = await heavy.run(client, prepared);
    const after = await rss();
    const peak = (await residentMemory(node.pid))?.peak ?? NaN;
    const idle: number[] = [];
    for (const seconds of IDLE_SECONDS) {
      await sleep((seconds - (IDLE_SECONDS[IDLE_SECONDS.indexOf(seconds) - 1] ?? 0)) * 1000);
      idle.push(await rss());
    }
    const last = idle.at(-1)!;
    return [heavy.name, warm ? 'warm' : 'fresh', answer, fmt(before), fmt(peak), fmt(after), ...idle.map((m) => fmt(m)), `${last >= before ? '+' : ''}${fmt((100 * (last - before)) / before)} %`];
  } finally {
    client.close();
    await node.stop();
  }
}

export async function measureHeavyRequests(log: (message: string) => void): Promise<void> {
  const rows: string[][] = [];
  for (const heavy of HEAVY) for (const warm of [false, true]) rows.push(await measureOne(heavy, warm, log));
  printTable(
    ['heavy request', 'node', 'answer', 'RSS before MiB', 'peak', 'after', ...IDLE_SECONDS.map((s) => `idle ${s} s`), 'idle vs before'],
    rows,
    new Set([3, 4, 5, 6, 7, 8, 9]),
  );
}
