// clients/typescript is a package of its own: it builds with its own tsconfig, and a consumer that installs it
// imports it by name, type-checks against it and calls a node with it; so does a viem user with its viem extension
// ("@evm-node/client/viem"), which only a consumer that installed viem can load.
import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../shared/contract/root.js';
import { methodsViemLacks } from '../../clients/typescript/src/viem.js';
import { methodNames } from '../../generated/index.js';
import { startTestNode, type TestNode } from '../helpers/node.js';

const root = projectRoot();
const pkgDir = path.join(root, 'clients', 'typescript');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function run(args: string[], cwd: string): string {
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const consumer = (url: string): string => `
import {
  createClient,
  httpTransport,
  isJsonRpcError,
  methodNames,
  type Block,
  type BlockWithTransactions,
  type EthGetBlockByNumberResult,
  type Hash32,
  type Transaction,
} from "@evm-node/client";

const client = createClient(httpTransport(${JSON.stringify(url)}));
const block: EthGetBlockByNumberResult = await client.eth_getBlockByNumber("0x0", false);
const typed: Block | null = block;
// Type checks only, never called:
export async function misuse(flag: boolean): Promise<void> {
  // @ts-expect-error the second param is a boolean
  void client.eth_getBlockByNumber("0x0", "yes");
  // @ts-expect-error eth_chainId takes no params
  void client.eth_chainId("0x1");
  // @ts-expect-error results are typed: a block number is a string
  void client.eth_blockNumber().then((n: number) => n);
  // @ts-expect-error addresses are 0x-prefixed hex
  void client.eth_getBalance("f39fd6e51aad88f6f4ce6ab8827279cfffb92266", "latest");
  const hex: \`0x\${string}\` = await client.eth_chainId();
  void hex;
  // The details flag narrows the block's transactions:
  const full: Transaction[] | undefined = (await client.eth_getBlockByNumber("latest", true))?.transactions;
  const hashes: Hash32[] | undefined = (await client.eth_getBlockByHash("0x00", false))?.transactions;
  // @ts-expect-error flag false gives hashes, not transactions
  const wrong: Transaction[] | undefined = (await client.eth_getBlockByNumber("latest", false))?.transactions;
  const either: BlockWithTransactions<boolean> | null = await client.eth_getBlockByNumber("latest", flag);
  void [full, hashes, wrong, either];
  // Batches are typed per call:
  const [id, balance] = await client.batch([{ method: "eth_chainId" }, { method: "eth_getBalance", params: ["0x00", "latest"] }]);
  if (id.ok && balance.ok) {
    const chain: \`0x\${string}\` = id.result;
    // @ts-expect-error a balance is a hex string
    const n: number = balance.result;
    void [chain, n];
  }
  // @ts-expect-error eth_getBalance needs its params
  void client.batch([{ method: "eth_getBalance" }]);
  // @ts-expect-error subscriptions need a WebSocket transport
  void client.subscribe("newHeads", () => undefined);
}
let code = 0;
try {
  await client.eth_getBlockByNumber("bogus" as never, false);
} catch (error) {
  if (isJsonRpcError(error)) code = error.code;
}
const [chainId] = await client.batch([{ method: "eth_chainId" }]);
console.log(JSON.stringify({ number: typed?.number, code, methods: methodNames.length, chainId: chainId.ok ? chainId.result : null }));
`;

/** A viem user: extends viem's own clients with the SDK's extension, over HTTP and WebSocket. */
const viemConsumer = (url: string): string => `
import { createClient as createViemClient, createPublicClient, http, rpcSchema, webSocket } from "viem";
import type { BlockHeader, Hash32, Log, Transaction } from "@evm-node/client";
import { evmNodeActions, methodsViemLacks, type EvmNodeRpcSchema } from "@evm-node/client/viem";

const client = createPublicClient({ transport: http(${JSON.stringify(url)}) }).extend(evmNodeActions());
const status = await client.txpoolStatus();
const mined: "0x0" = await client.evmMine();
const viemNumber: bigint = await client.getBlockNumber({ cacheTime: 0 });
const full = await client.evmNode.eth_getBlockByNumber("latest", true);
const transactions: Transaction[] | undefined = full?.transactions;
const hashes: Hash32[] | undefined = (await client.evmNode.eth_getBlockByNumber("latest", false))?.transactions;

const typedRequests = createViemClient({ transport: http(${JSON.stringify(url)}), rpcSchema: rpcSchema<EvmNodeRpcSchema>() });
const automine: true = await typedRequests.request({ method: "evm_setAutomine", params: [true] });

// Type checks only, never called:
export function misuse(): void {
  // @ts-expect-error evm_setAutomine takes a boolean
  void client.evmSetAutomine("yes");
  // @ts-expect-error txpool_status takes no params
  void client.txpoolStatus(1);
  // @ts-expect-error a newHeads listener gets a header, not a log
  void client.subscribe("newHeads", (log: Log) => log);
  // @ts-expect-error only logs subscriptions take a filter
  void client.subscribe("newHeads", () => undefined, { filter: { address: "0x00" } });
  void client.subscribe("logs", (log: Log) => log.logIndex, { filter: { address: "0x00", topics: [null] } });
  // @ts-expect-error flag true gives transactions, not hashes
  void client.evmNode.eth_getBlockByNumber("latest", true).then((b) => { const h: Hash32[] | undefined = b?.transactions; return h; });
  // @ts-expect-error not a method of the contract
  void typedRequests.request({ method: "eth_nope" });
}

const ws = createPublicClient({ transport: webSocket(${JSON.stringify(url.replace(/^http/, "ws"))}) }).extend(evmNodeActions());
let onHead: (head: BlockHeader) => void = () => undefined;
const firstHead = new Promise<BlockHeader>((resolve) => (onHead = resolve));
const stop = await ws.subscribe("newHeads", (h) => onHead(h));
await ws.evmMine();
const head = await firstHead;
await stop();
// Closed with nothing in flight (viem would retry a request the close cut, on a new socket).
(await ws.transport.getRpcClient()).close();
console.log(JSON.stringify({
  pending: status.pending,
  mined,
  numberMatches: full?.number === "0x" + viemNumber.toString(16),
  transactions: transactions?.length,
  hashes: hashes?.length,
  automine,
  lacks: methodsViemLacks.length,
  head: BigInt(head.number) > viemNumber,
}));
`;

describe('client SDK: a package of its own', function () {
  this.timeout(120_000);
  let tmp: string;
  let node: TestNode;

  before(async function () {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'evm-node-client-'));
    node = await startTestNode();
  });

  after(async function () {
    await node?.destroy();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('builds with its own tsconfig, declarations included, for both entries', function () {
    const installed = path.join(tmp, 'node_modules', '@evm-node', 'client');
    mkdirSync(installed, { recursive: true });
    run([tsc, '-p', pkgDir, '--outDir', path.join(installed, 'dist'), '--declarationMap', 'false', '--sourceMap', 'false'], root);
    cpSync(path.join(pkgDir, 'package.json'), path.join(installed, 'package.json'));
    const pkg = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
      exports: Record<string, { types: string; default: string }>;
    };
    expect(Object.keys(pkg.exports)).to.deep.equal(['.', './viem']);
    for (const entry of Object.values(pkg.exports)) {
      for (const file of [entry.types, entry.default]) expect(() => readFileSync(path.join(installed, file)), file).to.not.throw();
    }
    writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
  });

  /** Type-checks `file` (strict, the package's declarations included) and runs it; returns what it printed. */
  async function typeCheckAndRun(file: string, source: string): Promise<unknown> {
    writeFileSync(path.join(tmp, `${file}.ts`), source);
    writeFileSync(
      path.join(tmp, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false },
        files: [`${file}.ts`],
      }),
    );
    run([tsc, '-p', tmp], tmp);
    // Asynchronously: the node answering the consumer runs in this very process.
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(tmp, `${file}.js`)], { cwd: tmp, timeout: 60_000 }).catch(
      (error: { message: string; signal?: string; stdout?: string; stderr?: string }) => {
        throw new Error(`${file}.js failed (signal ${error.signal ?? 'none'}): ${error.message}\nstdout: ${error.stdout}\nstderr: ${error.stderr}`);
      },
    );
    return JSON.parse(stdout);
  }

  it('is importable by name without viem installed, type-checks a consumer, and calls the node', async function () {
    expect(() => createRequire(path.join(tmp, 'consumer.js')).resolve('viem'), 'viem must not be reachable here').to.throw();
    expect(await typeCheckAndRun('consumer', consumer(node.url))).to.deep.equal({
      number: '0x0',
      code: -32602,
      methods: methodNames.length,
      chainId: '0x7a69',
    });
  });

  it('extends viem clients in a consumer that installs viem, type-checked, over HTTP and WebSocket', async function () {
    symlinkSync(path.join(root, 'node_modules', 'viem'), path.join(tmp, 'node_modules', 'viem'), 'dir');
    const out = await typeCheckAndRun('viem-consumer', viemConsumer(node.url));
    expect(out).to.deep.equal({
      pending: '0x0',
      mined: '0x0',
      numberMatches: true,
      transactions: 0,
      hashes: 0,
      automine: true,
      lacks: methodsViemLacks.length,
      head: true,
    });
  });
});
