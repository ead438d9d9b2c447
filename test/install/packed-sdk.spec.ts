// The TypeScript SDK installs from its own tarball (`npm pack` in clients/typescript, which builds it) into a
// fresh TypeScript project that has viem installed, and its viem extension type-checks there. Installed the other
// way, `npm install /path/to/clients/typescript`, npm links the folder: the SDK then resolves viem from the
// checkout while the project has its own, and TypeScript sees two viems whose types do not match.
//
// The project's viem is a copy of the checkout's installed one (its declarations; its dependencies linked beside
// it): viem cannot be installed offline on a clean CI machine, whose npm cache after `npm ci` lacks the registry
// metadata npm resolves versions with, and a copy is what an install gives, a viem of the project's own.
import { expect } from 'chai';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { described, npmFor, runBounded, type NpmRunner, type Run } from '../helpers/npm.js';
import { projectRoot } from '../../shared/contract/root.js';

const root = projectRoot();
const sdk = join(root, 'clients', 'typescript');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** A small program using the extension: viem's public client extended with the SDK's actions, and its request types. */
const USES_EXTENSION = `
import { createClient, createPublicClient, http, rpcSchema } from "viem";
import { evmNodeActions, methodsViemLacks, type EvmNodeRpcSchema } from "@evm-node/client/viem";
import type { Hash32 } from "@evm-node/client";

const client = createPublicClient({ transport: http("http://127.0.0.1:8545") }).extend(evmNodeActions());
export const mined: Promise<"0x0"> = client.evmMine();
export const hashes: Promise<Hash32[] | undefined> = client.evmNode.eth_getBlockByNumber("latest", false).then((b) => b?.transactions);
export const automine: Promise<true> = createClient({ transport: http(), rpcSchema: rpcSchema<EvmNodeRpcSchema>() }).request({ method: "evm_setAutomine", params: [true] });
export const lacks: number = methodsViemLacks.length;
// @ts-expect-error evm_setAutomine takes a boolean
void client.evmSetAutomine("yes");
`;

/** A fresh TypeScript project in `dir`, holding the program. */
function freshProject(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(dir, 'uses-extension.ts'), USES_EXTENSION);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      // The SDK's own declarations are checked strictly by test/client/sdk-package.spec.ts; here, the program.
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, lib: ['ES2022', 'DOM'], types: [], skipLibCheck: true, noEmit: true },
      files: ['uses-extension.ts'],
    }),
  );
}

/** viem of the project's own in `dir` (see above); after any npm install there, which would prune it. */
function installViem(dir: string): void {
  const viem = join(root, 'node_modules', 'viem');
  const wanted = (path: string) => ['', 'package.json', '_types', 'node_modules'].some((part) => relative(viem, path) === part || relative(viem, path).startsWith(part + sep));
  cpSync(viem, join(dir, 'node_modules', 'viem'), { recursive: true, filter: (path) => relative(viem, path) === '' || wanted(path) });
  const dependencies = Object.keys((JSON.parse(readFileSync(join(viem, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  for (const name of dependencies.filter((name) => !existsSync(join(viem, 'node_modules', name)))) {
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
}

/** The viem packages whose declarations a type-check read (from its --listFiles), by folder. */
const viemsSeen = (run: Run): string[] =>
  [...run.stdout.matchAll(/^(.*\/node_modules\/viem)\/_types\/index\.d\.ts$/gm)].map(([, folder]) => folder!).sort();

describe('the packed TypeScript SDK, installed beside viem', function () {
  this.timeout(300_000);
  let npm: NpmRunner;
  let tmp: string | undefined;
  let typeCheck: (dir: string) => Promise<Run>;

  before(async function () {
    npm = npmFor(this, 'test/install/packed-sdk.spec.ts');
    tmp = mkdtempSync(join(tmpdir(), 'evm-node-sdk-install-'));
    // --listFiles: every file the check read, among them each viem it found.
    typeCheck = (dir) => runBounded(process.execPath, [tsc, '-p', dir, '--listFiles'], { cwd: dir, timeoutMs: 120_000 });
  });

  after(() => {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  });

  it('packs with its build (prepack), installs from the tarball, and its viem extension type-checks (tsc --noEmit)', async () => {
    const pack = await npm('npm', ['pack', '--pack-destination', tmp!], { cwd: sdk, timeoutMs: 120_000 });
    expect(pack.status, described(pack)).to.equal(0);
    const [tarball] = readdirSync(tmp!).filter((name) => name.endsWith('.tgz'));
    const project = join(tmp!, 'from-tarball');
    freshProject(project);
    const install = await npm('npm', ['install', '--offline', '--cache', join(tmp!, 'empty-npm-cache'), '--no-audit', '--no-fund', join(tmp!, tarball!)], { cwd: project, timeoutMs: 120_000 });
    expect(install.status, described(install)).to.equal(0);
    installViem(project);
    const checked = await typeCheck(project);
    expect(checked.status, described(checked)).to.equal(0);
    expect(viemsSeen(checked)).to.deep.equal([join(project, 'node_modules', 'viem')]);
  });

  it('does not type-check linked from the checkout (npm install /path/to/clients/typescript): TypeScript sees two viems', async () => {
    const project = join(tmp!, 'linked');
    freshProject(project);
    installViem(project);
    mkdirSync(join(project, 'node_modules', '@evm-node'));
    symlinkSync(sdk, join(project, 'node_modules', '@evm-node', 'client'), 'dir');
    const checked = await typeCheck(project);
    expect(viemsSeen(checked)).to.deep.equal([join(root, 'node_modules', 'viem'), join(project, 'node_modules', 'viem')].sort());
    const extendLine = USES_EXTENSION.split('\n').findIndex((line) => line.includes('.extend(evmNodeActions())')) + 1;
    expect(checked.stdout).to.match(new RegExp(`^uses-extension\\.ts\\(${extendLine},\\d+\\): error TS2345: Argument of type '\\(client: ViemClientLike\\) => EvmNodeActions'`, 'm'));
  });
});
