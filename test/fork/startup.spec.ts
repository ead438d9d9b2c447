// Forking from the command line: a remote nobody serves is one line and exit code 1; a data dir
// keeps its fork and resumes it without asking the remote; --offline serves from the fork cache.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { killAll, listening, runCli } from '../helpers/cli.js';
import { rpc } from '../helpers/rpc.js';
import { hexToBytes, type Hex } from 'viem';
import { cachedForks, forkStoreInDir } from '../../src/fork/fork-store.js';
import { accountRecord } from '../../src/fork/proof-records.js';
import { balanceOfData, CountingProxy, direct, seedRemote, type SeededRemote } from '../helpers/fork-remote.js';

const SYSTEM_ADDRESS = '0xfffffffffffffffffffffffffffffffffffffffe';

describe('forking: start-up', () => {
  let remote: SeededRemote;
  let proxy: CountingProxy;
  let cwd: string;

  before(async () => {
    remote = await seedRemote({ blocks: 1, perBlock: 4 });
    proxy = await CountingProxy.start(remote.node.url);
  });
  beforeEach(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'evm-node-fork-cli-'));
  });
  afterEach(async () => {
    killAll();
    await rm(cwd, { recursive: true, force: true });
  });
  after(async () => {
    await proxy?.close();
    await remote?.node.destroy();
  });

  const start = (flags: string[]) => runCli(['start', '--port', '0', '--fork-cache-dir', join(cwd, 'cache'), ...flags], { cwd });

  /** Forks the remote at its fork block, answers `call` there and stops the node with `signal`: its cache then holds what the call read. */
  async function readOnce(call: { to: string; data: string }, signal: NodeJS.Signals): Promise<unknown> {
    const online = start(['--fork-url', proxy.url, '--fork-block-number', String(remote.forkBlock)]);
    const answer = await rpc(await listening(online), 'eth_call', [call, 'latest']);
    online.child.kill(signal);
    await online.exited;
    return answer;
  }

  it('refuses a remote nobody serves in one line, exit code 1, leaving nothing behind', async () => {
    const cli = start(['--fork-url', 'http://127.0.0.1:1', '--data-dir', join(cwd, 'data')]);
    expect(await cli.exited).to.equal(1);
    expect(cli.stderr()).to.match(/^evm-node: the fork's remote http:\/\/127\.0\.0\.1:1 failed: cannot connect: [^\n]+\n$/);
    expect(await readdir(cwd)).to.deep.equal([]);
  });

  it('refuses a remote that answers with an error of its own, not to the call (a path it does not serve), at once and naming it', async () => {
    const cli = start(['--fork-url', `${remote.node.url}/v2/some-key`, '--no-fork-cache']);
    expect(await cli.exited).to.equal(1);
    expect(cli.stderr()).to.match(/^evm-node: the fork's remote http:\/\/127\.0\.0\.1:\d+\/… refused eth_(chainId|getBlockByNumber): not found \(code -32600\)\n$/);
  });

  it('--fork-block-number below zero forks that many blocks before the remote’s head, as anvil does', async () => {
    const cli = start(['--fork-url', proxy.url, '--fork-block-number=-1', '--no-fork-cache']);
    const url = await listening(cli);
    expect(await rpc(url, 'eth_blockNumber', [])).to.equal(`0x${(BigInt(await direct<string>(remote, 'eth_blockNumber', [])) - 1n).toString(16)}`);
  });

  it('refuses a --fork-chain-id the fork block’s transactions are not signed for, naming the chain they are', async () => {
    const cli = start(['--fork-url', proxy.url, '--fork-block-number', String(remote.forkBlock), '--fork-chain-id', '1', '--no-fork-cache']);
    expect(await cli.exited).to.equal(1);
    expect(cli.stderr()).to.match(/^evm-node: --fork-chain-id 1 is not the remote's chain id: the transactions of its block \d+ are signed for chain 31337\n$/);
  });

  it('starts on a remote that serves no eth_getProof, saying in the banner that its state roots are not real', async () => {
    proxy.refused.add('eth_getProof');
    try {
      const cli = start(['--fork-url', proxy.url, '--no-fork-cache']);
      await listening(cli);
      expect(cli.stdout()).to.match(/State roots +NOT REAL: the remote serves no eth_getProof/);
    } finally {
      proxy.refused.clear();
    }
  });

  it('prints the fork in the banner: the remote, the block and its hash, the cache', async () => {
    const cli = start(['--fork-url', proxy.url, '--fork-block-number', String(remote.forkBlock)]);
    await listening(cli);
    const { hash } = await direct<{ hash: string }>(remote, 'eth_getBlockByNumber', [`0x${remote.forkBlock.toString(16)}`, false]);
    expect(cli.stdout()).to.include(`Fork         ${proxy.url} at block ${remote.forkBlock} (${hash}), remote chain id 31337`);
    expect(cli.stdout()).to.match(/Fork cache +in .*cache\/31337\//);
  });

  it('sends a provider’s path, the URL’s credentials and each --fork-header with every request', async () => {
    const url = new URL(proxy.url);
    const cli = start(['--fork-url', `http://user:pa55@${url.host}/v3/key-in-path?tier=free`, '--fork-header', 'X-Api-Key: k3y', '--fork-header', 'X-Team: evm', '--no-fork-cache']);
    await listening(cli);
    const { path, headers } = proxy.lastRequest!;
    expect(path).to.equal('/v3/key-in-path?tier=free');
    expect(headers.authorization).to.equal(`Basic ${Buffer.from('user:pa55').toString('base64')}`);
    expect(headers['x-api-key']).to.equal('k3y');
    expect(headers['x-team']).to.equal('evm');
    expect(cli.stdout()).to.not.include('pa55');
  });

  it('resumes a data dir’s fork on restart asking the remote nothing, and without --fork-url serves it offline', async () => {
    const data = join(cwd, 'data');
    const call = { to: remote.token, data: balanceOfData(remote.holders[1]) };
    const first = start(['--fork-url', proxy.url, '--data-dir', data]);
    const url = await listening(first);
    const expected = await rpc(url, 'eth_call', [call, 'latest']);
    first.child.kill('SIGKILL');
    await first.exited;
    proxy.reset();
    const again = start(['--fork-url', proxy.url, '--data-dir', data]);
    expect(await rpc(await listening(again), 'eth_call', [call, 'latest'])).to.equal(expected);
    expect(proxy.reset().total).to.equal(0);
    again.child.kill('SIGKILL');
    await again.exited;
    const offline = runCli(['start', '--port', '0', '--data-dir', data], { cwd });
    const offlineUrl = await listening(offline);
    expect(offline.stdout()).to.include('offline, from the fork cache');
    expect(await rpc(offlineUrl, 'eth_call', [call, 'latest'])).to.equal(expected);
    expect(proxy.reset().total).to.equal(0);
  });

  it('--offline serves what the fork cache holds, also after a kill -9, and a miss is a clear error', async () => {
    const call = { to: remote.token, data: balanceOfData(remote.holders[2]) };
    const expected = await readOnce(call, 'SIGKILL');
    proxy.reset();
    const offline = start(['--offline', '--fork-block-number', String(remote.forkBlock)]);
    const url = await listening(offline);
    expect(await rpc(url, 'eth_call', [call, 'latest'])).to.equal(expected);
    const miss = await rpc(url, 'eth_getBalance', [remote.holders[3], 'latest']).then(
      () => undefined,
      (error: { code: number; message: string }) => error,
    );
    expect(miss?.code).to.equal(-32000);
    expect(miss?.message).to.match(/--offline: the fork cache holds no account/);
    const callMiss = await rpc(url, 'eth_call', [{ to: remote.holders[3], data: '0x' }, 'latest']).then(
      () => undefined,
      (error: { code: number; message: string }) => error,
    );
    expect(callMiss?.code).to.equal(-32000);
    expect(callMiss?.message).to.match(/--offline: the fork cache holds no account/);
    expect(proxy.reset().total).to.equal(0);
  });

  it('--offline serves a fork cache that lacks what a new fork now reads first of the system contracts (one an older node wrote)', async () => {
    const call = { to: remote.token, data: balanceOfData(remote.holders[2]) };
    const expected = await readOnce(call, 'SIGINT');
    const [identity] = cachedForks(join(cwd, 'cache'), remote.forkBlock, undefined);
    const store = await forkStoreInDir(join(cwd, 'cache'), identity, () => {});
    const block = { number: remote.forkBlock, hash: hexToBytes(identity.hash as Hex), stateRoot: new Uint8Array(32) };
    await store.fork.del(accountRecord(block, hexToBytes(SYSTEM_ADDRESS)));
    await store.close();
    const offline = start(['--offline', '--fork-block-number', String(remote.forkBlock)]);
    expect(await rpc(await listening(offline), 'eth_call', [call, 'latest'])).to.equal(expected);
  });
});
