// evm-node installs as a user installs it: `npm pack` of the checkout, the tarball installed into an empty
// folder, then `npx evm-node --help` and a start that answers eth_chainId over HTTP. The install has no network
// and an empty npm cache (`--offline --cache <empty>`): the node runs its bundle, and what runs outside it (the
// native addons) is bundled in the tarball, so nothing is fetched. (A clean CI machine's cache after `npm ci`
// would not do: it holds the packages' tarballs but not the registry metadata npm resolves versions with.)
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAll, listening, runCli } from '../helpers/cli.js';
import { described, npmFor, type NpmRunner } from '../helpers/npm.js';
import { DEV_ADDRESSES } from '../helpers/node.js';
import { rpc } from '../helpers/rpc.js';
import { expectRpcError } from '../helpers/transactions.js';
import { packageVersion, projectRoot } from '../../src/contract.js';

describe('the packed evm-node, installed', function () {
  this.timeout(300_000);
  let npm: NpmRunner;
  let tmp: string | undefined;
  let consumer: string;

  before(async function () {
    npm = npmFor(this, 'test/install/packed-node.spec.ts');
    tmp = mkdtempSync(join(tmpdir(), 'evm-node-install-'));
    // The build `npm test` just made (packing without scripts: `prepare` would build again under the running specs).
    const pack = await npm('npm', ['pack', '--ignore-scripts', '--pack-destination', tmp], { cwd: projectRoot(), timeoutMs: 120_000 });
    expect(pack.status, described(pack)).to.equal(0);
    const [tarball] = readdirSync(tmp).filter((name) => name.endsWith('.tgz'));
    consumer = join(tmp, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
    const offline = ['--offline', '--cache', join(tmp, 'empty-npm-cache'), '--no-audit', '--no-fund'];
    const install = await npm('npm', ['install', ...offline, join(tmp, tarball!)], { cwd: consumer, timeoutMs: 120_000 });
    expect(install.status, described(install)).to.equal(0);
  });

  afterEach(() => killAll());

  after(() => {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  });

  it('prints its usage for `npx evm-node --help`', async () => {
    const help = await npm('npx', ['--offline', 'evm-node', '--help'], { cwd: consumer, timeoutMs: 60_000 });
    expect(help.status, described(help)).to.equal(0);
    expect(help.stdout).to.match(/^evm-node — a contract-first EVM JSON-RPC node\n\nUsage: evm-node \[start\] \[flags\]/);
    expect(help.stdout).to.include('--data-dir DIR');
  });

  it('starts on a free port with a data dir, answers eth_chainId over HTTP, and stops cleanly on SIGTERM', async () => {
    const bin = realpathSync(join(consumer, 'node_modules', '.bin', 'evm-node'));
    const cli = runCli(['--port', '0', '--data-dir', join(tmp!, 'data')], { cli: bin, cwd: consumer });
    const url = await listening(cli);
    expect(await rpc(url, 'eth_chainId', [])).to.equal('0x7a69');
    expect(await rpc(url, 'web3_clientVersion', [])).to.equal(`evm-node/v${packageVersion()}`);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).to.equal(0);
  });

  it('checks params and signs as a checkout does: personal_sign, whose validator the bundle carries with its ajv helpers', async () => {
    const cli = runCli(['--port', '0'], { cli: realpathSync(join(consumer, 'node_modules', '.bin', 'evm-node')), cwd: consumer });
    const url = await listening(cli);
    expect(await rpc(url, 'personal_sign', ['0x68656c6c6f', DEV_ADDRESSES[0]])).to.match(/^0x[0-9a-f]{130}$/);
    await expectRpcError(rpc(url, 'personal_sign', ['hello', DEV_ADDRESSES[0]]), -32602, /data/);
  });
});
