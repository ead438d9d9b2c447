// clients/typescript is a package of its own: it builds with its own tsconfig, and a consumer that installs it
// imports it by name, type-checks against it and calls a node with it.
import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/contract/root.js';
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
import { createClient, httpTransport, isJsonRpcError, methodNames, type Block, type EthGetBlockByNumberResult } from "@evm-node/client";

const client = createClient(httpTransport(${JSON.stringify(url)}));
const block: EthGetBlockByNumberResult = await client.eth_getBlockByNumber("0x0", false);
const typed: Block | null = block;
// Type checks only, never called:
export function misuse(): void {
  // @ts-expect-error the second param is a boolean
  void client.eth_getBlockByNumber("0x0", "yes");
  // @ts-expect-error eth_chainId takes no params
  void client.eth_chainId("0x1");
  // @ts-expect-error results are typed: a block number is a string
  void client.eth_blockNumber().then((n: number) => n);
}
let code = 0;
try {
  await client.eth_getBlockByNumber("bogus" as never, false);
} catch (error) {
  if (isJsonRpcError(error)) code = error.code;
}
console.log(JSON.stringify({ number: typed?.number, code, methods: methodNames.length }));
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

  it('builds with its own tsconfig, declarations included', function () {
    const installed = path.join(tmp, 'node_modules', '@evm-node', 'client');
    mkdirSync(installed, { recursive: true });
    run([tsc, '-p', pkgDir, '--outDir', path.join(installed, 'dist'), '--declarationMap', 'false', '--sourceMap', 'false'], root);
    cpSync(path.join(pkgDir, 'package.json'), path.join(installed, 'package.json'));
    const pkg = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as { exports: { '.': { types: string; default: string } } };
    for (const file of [pkg.exports['.'].types, pkg.exports['.'].default]) {
      expect(() => readFileSync(path.join(installed, file)), file).to.not.throw();
    }
  });

  it('is importable by name, type-checks a consumer, and calls the node', async function () {
    writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
    writeFileSync(path.join(tmp, 'consumer.ts'), consumer(node.url));
    writeFileSync(
      path.join(tmp, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false },
        files: ['consumer.ts'],
      }),
    );
    run([tsc, '-p', tmp], tmp);
    // Asynchronously: the node answering the consumer runs in this very process.
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(tmp, 'consumer.js')], { cwd: tmp, timeout: 60_000 });
    const out = stdout;
    expect(JSON.parse(out)).to.deep.equal({ number: '0x0', code: -32602, methods: methodNames.length });
  });
});
