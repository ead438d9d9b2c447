// The remote a forking test forks: this project's own node on another port, seeded with a token,
// its holders and their Transfer logs over several blocks, behind a proxy the test controls that
// counts what reaches the remote and injects latency, HTTP 429s, errors inside batch entries,
// timeouts and disconnects. Nothing leaves the machine.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { encodeFunctionData, type Abi, type Hex } from 'viem';
import { DEFAULTS, FORK_DEFAULTS, type ForkConfig, type NodeConfig } from '../../src/config.js';
import type { Logger } from '../../src/log.js';
import { contracts, deployContract } from './contracts.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from './node.js';
import { rpc } from './rpc.js';

export interface SeededRemote {
  node: TestNode;
  token: Hex;
  /** addresses holding tokens, each a distinct amount; every fourth (0, 4, 8, …) also holds 1 ether, to pay for gas */
  holders: Hex[];
  /** the transfers that gave them, in order */
  transfers: Hex[];
  /** the remote's head once seeded: the block the forks fork at */
  forkBlock: bigint;
}

const tokenAbi = () => contracts().Token.abi as unknown as Abi;
export const holderAt = (i: number): Hex => `0x${(0xa11ce000n + BigInt(i)).toString(16).padStart(40, '0')}`;
export const balanceOfData = (holder: Hex): Hex => encodeFunctionData({ abi: tokenAbi(), functionName: 'balanceOf', args: [holder] });
export const transferData = (to: Hex, amount: bigint): Hex => encodeFunctionData({ abi: tokenAbi(), functionName: 'transfer', args: [to, amount] });

/** A remote chain: the token deployed, then `blocks` blocks of `perBlock` transfers each to distinct holders. */
export async function seedRemote({ blocks = 4, perBlock = 5 } = {}): Promise<SeededRemote> {
  const node = await startTestNode({ dataDir: undefined });
  const token = await deployContract(node, 'Token', ['Fork Token', 'FT', 10n ** 24n]);
  await node.call('evm_setAutomine', [false]);
  const transfers: Hex[] = [];
  const holders: Hex[] = [];
  for (let b = 0; b < blocks; b++) {
    for (let t = 0; t < perBlock; t++) {
      const holder = holderAt(holders.length);
      holders.push(holder);
      transfers.push(await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: token, data: transferData(holder, 1000n + BigInt(holders.length)), gas: '0x30000' }]) as Hex);
      if ((holders.length - 1) % 4 === 0) await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: holder, value: '0xde0b6b3a7640000' }]);
    }
    await node.call('evm_mine', []);
  }
  await node.call('evm_setAutomine', [true]);
  const forkBlock = BigInt(await node.call('eth_blockNumber', []));
  return { node, token, holders, transfers, forkBlock };
}

/** What the proxy does to the requests it passes on; each count is used up one request at a time. */
export interface Faults {
  latencyMs: number;
  /** answer this many requests HTTP 429 (Retry-After: 0) */
  tooManyRequests: number;
  /** replace the first entry of this many answers by a -32005 rate-limit error */
  entryErrors: number;
  /** hold this many requests unanswered (the client's timeout ends them) */
  hangs: number;
  /** drop the connection of this many requests */
  disconnects: number;
}

/** An edit the proxy makes to every answer of one method (a remote of another make, say). */
export type AnswerEdit = (result: unknown) => Promise<unknown>;

export interface Counts {
  http: number;
  calls: Record<string, number>;
  total: number;
  /** method → the most calls of it one request carried */
  mostPerRequest: Record<string, number>;
  /** the storage slots the calls named (eth_getStorageAt, eth_getStorageValues, eth_getProof), a slot named twice counted twice */
  slots: number;
}

/** How many storage slots a call names. */
function slotsNamed(call: { method: string; params?: unknown[] }): number {
  const params = call.params ?? [];
  if (call.method === 'eth_getStorageAt') return 1;
  if (call.method === 'eth_getProof') return (params[1] as unknown[]).length;
  if (call.method === 'eth_getStorageValues') return Object.values(params[0] as Record<string, unknown[]>).reduce((sum, slots) => sum + slots.length, 0);
  return 0;
}

/** A counting, fault-injecting JSON-RPC proxy in front of `target`. */
export class CountingProxy {
  faults: Faults = { latencyMs: 0, tooManyRequests: 0, entryErrors: 0, hangs: 0, disconnects: 0 };
  /** methods answered as a remote that does not serve them answers: with {@link refusal} */
  refused = new Set<string>();
  /** how a refused method is answered: geth's -32601 unless a test sets another remote's words */
  refusal = { code: -32601, message: (method: string) => `the method ${method} does not exist/is not available` };
  /** method → how its answers are edited on the way back */
  edits: Record<string, AnswerEdit> = {};
  /** eth_getLogs over more blocks than this is refused with `error`, as providers bound a query's range */
  logRange?: { blocks: bigint; error: { code: number; message: string } };
  private counts: Counts = { http: 0, calls: {}, total: 0, mostPerRequest: {}, slots: 0 };
  /** requests since the proxy started (reset() leaves it) */
  private arrived = 0;
  /** the path and headers of the latest request: what a provider reads its key from */
  lastRequest?: { path: string; headers: IncomingHttpHeaders };
  private readonly held: ServerResponse[] = [];
  url = '';

  private constructor(
    private readonly server: Server,
    private readonly target: string,
  ) {}

  static async start(target: string): Promise<CountingProxy> {
    let proxy: CountingProxy | undefined;
    // A request still on its way when a test stops its remote finds nothing to pass it to: its connection just ends.
    const server = createServer((req, res) => void proxy!.handle(req, res).catch(() => res.destroy()));
    proxy = new CountingProxy(server, target);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return proxy;
  }

  /** What reached the remote since the last reset, and starts counting again. */
  reset(): Counts {
    const counts = this.counts;
    this.counts = { http: 0, calls: {}, total: 0, mostPerRequest: {}, slots: 0 };
    return counts;
  }

  peek(): Counts {
    return this.counts;
  }

  /** Waits until no request has arrived for 50 ms: what a node sent on its own (reads ahead of need, a failed fork's last requests) has landed. */
  async quiet(): Promise<void> {
    for (let seen = -1; this.arrived !== seen; ) {
      seen = this.arrived;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const parsed = JSON.parse(body) as { method: string; params?: unknown[] } | { method: string; params?: unknown[] }[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    this.counts.http++;
    this.arrived++;
    this.lastRequest = { path: req.url ?? '', headers: req.headers };
    const inRequest: Record<string, number> = {};
    for (const call of calls) {
      this.counts.calls[call.method] = (this.counts.calls[call.method] ?? 0) + 1;
      this.counts.total++;
      this.counts.slots += slotsNamed(call);
      inRequest[call.method] = (inRequest[call.method] ?? 0) + 1;
    }
    for (const [method, count] of Object.entries(inRequest)) this.counts.mostPerRequest[method] = Math.max(this.counts.mostPerRequest[method] ?? 0, count);
    const { faults } = this;
    if (faults.disconnects > 0) {
      faults.disconnects--;
      req.socket.destroy();
      return;
    }
    if (faults.hangs > 0) {
      faults.hangs--;
      this.held.push(res);
      return;
    }
    if (faults.tooManyRequests > 0) {
      faults.tooManyRequests--;
      res.writeHead(429, { 'retry-after': '0', 'content-type': 'text/plain' }).end('too many requests');
      return;
    }
    if (faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
    const served = calls.filter((call) => this.refusalOf(call) === undefined);
    const answer = served.length === 0 ? undefined : await fetch(this.target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: served.length === calls.length ? body : JSON.stringify(served) });
    let text = answer === undefined ? '[]' : await answer.text();
    if (served.length < calls.length) text = this.withRefusals(calls, text, Array.isArray(parsed));
    if (faults.entryErrors > 0) {
      faults.entryErrors--;
      const answers = JSON.parse(text) as { id: unknown }[] | { id: unknown };
      const list = Array.isArray(answers) ? answers : [answers];
      list[0] = { jsonrpc: '2.0', id: list[0].id, error: { code: -32005, message: 'rate limit exceeded' } } as never;
      text = JSON.stringify(Array.isArray(answers) ? list : list[0]);
    }
    if (Object.keys(this.edits).length > 0) text = await this.edited(calls, text);
    res.writeHead(answer?.status ?? 200, { 'content-type': 'application/json' }).end(text);
  }

  /** The error the proxy answers `call` with in the remote's place: a method it does not serve, a log range past {@link logRange}. */
  private refusalOf(call: { method: string; params?: unknown[] }): { code: number; message: string } | undefined {
    if (this.refused.has(call.method)) return { code: this.refusal.code, message: this.refusal.message(call.method) };
    if (call.method !== 'eth_getLogs' || this.logRange === undefined) return undefined;
    const { fromBlock, toBlock } = (call.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
    if (fromBlock === undefined || toBlock === undefined) return undefined;
    return BigInt(toBlock) - BigInt(fromBlock) + 1n > this.logRange.blocks ? this.logRange.error : undefined;
  }

  /** The answers to `calls`: the remote's `text` to those it served, "method not found" to each refused one (as a remote that does not serve it answers an entry). */
  private withRefusals(calls: { method: string; params?: unknown[] }[], text: string, batch: boolean): string {
    const parsed = JSON.parse(text) as unknown;
    const served = (Array.isArray(parsed) ? parsed : [parsed]) as { id: unknown }[];
    const byId = new Map(served.map((answer) => [answer.id, answer]));
    const answers = calls.map((call) => {
      const { id } = call as { id?: unknown };
      const error = this.refusalOf(call);
      return error !== undefined ? { jsonrpc: '2.0', id, error } : byId.get(id);
    });
    return JSON.stringify(batch ? answers : answers[0]);
  }

  private async edited(calls: { method: string }[], text: string): Promise<string> {
    const answers = JSON.parse(text) as { result?: unknown }[] | { result?: unknown };
    const list = Array.isArray(answers) ? answers : [answers];
    for (const [i, answer] of list.entries()) {
      const edit = this.edits[calls[i]?.method];
      if (edit !== undefined && answer.result !== undefined && answer.result !== null) answer.result = await edit(answer.result);
    }
    return JSON.stringify(answers);
  }
}

/** Fork settings for a test: `url` at `blockNumber`, the cache in `cacheDir`, quick retries. */
export function forkSettings(url: string, cacheDir: string, more: Partial<ForkConfig> = {}): ForkConfig {
  return { ...FORK_DEFAULTS, url, headers: {}, offline: false, cacheDir, cache: true, backoffMs: 20, timeoutMs: 2_000, ...more };
}

export interface ForkingNode extends TestNode {
  cacheDir: string;
}

/** A node forking `url`, its fork cache in a temp dir of its own (or `cacheDir`), in memory unless `dataDir` is given; `log` replaces the test logger. */
export async function startFork(url: string, more: Partial<ForkConfig> = {}, config: Partial<NodeConfig> = {}, cacheDir?: string, log?: Logger): Promise<ForkingNode> {
  const dir = cacheDir ?? (await mkdtemp(join(tmpdir(), 'evm-node-fork-cache-')));
  const node = await startTestNode({ ...DEFAULTS, port: 0, dataDir: undefined, fork: forkSettings(url, dir, more), ...config }, undefined, { log });
  const destroy = node.destroy;
  return {
    ...node,
    cacheDir: dir,
    destroy: async () => {
      await destroy();
      if (cacheDir === undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A seeded remote, a counting proxy in front of it and a node forking it at its head, for one describe block. */
export interface ForkFixture {
  remote: SeededRemote;
  proxy: CountingProxy;
  fork: ForkingNode;
}

/** Registers the describe block's before and after hooks that make and stop a {@link ForkFixture}. */
export function forkFixture(seed: Parameters<typeof seedRemote>[0] = {}, more: Partial<ForkConfig> = {}, config: Partial<NodeConfig> = {}): ForkFixture {
  const fixture = {} as ForkFixture;
  before(async () => {
    fixture.remote = await seedRemote(seed);
    fixture.proxy = await CountingProxy.start(fixture.remote.node.url);
    fixture.fork = await startFork(fixture.proxy.url, { blockNumber: fixture.remote.forkBlock, ...more }, config);
    // What the fork reads ahead as it starts lands before a test counts what reaches the remote.
    await fixture.proxy.quiet();
  });
  after(async () => {
    await fixture.fork?.destroy();
    await fixture.proxy?.close();
    await fixture.remote?.node.destroy();
  });
  return fixture;
}

/** The remote's answer to `method`, read straight from it (not through the proxy). */
export const direct = <T>(remote: SeededRemote, method: string, params: unknown[]) => rpc<T>(remote.node.url, method, params);
