// The CLI as a user runs it: a child process of the compiled cli.js, read through its stdout and stderr.
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { killAll, listening, runCli, type Cli } from './helpers/cli.js';
import { DEV_ADDRESSES, DEV_KEYS } from './helpers/node.js';
import { rpc, rpcRaw } from './helpers/rpc.js';

/** Starts `start --port 0` on `dataDir` and answers the URL it printed once listening. */
async function startCli(dataDir: string, extra: string[] = []): Promise<{ cli: Cli; url: string }> {
  const cli = runCli(['start', '--port', '0', '--data-dir', dataDir, '--log-level', 'error', ...extra]);
  return { cli, url: await listening(cli) };
}

describe('the CLI', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'evm-node-cli-'));
  });
  afterEach(async () => {
    killAll();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints every flag with --help, and exits 0', async () => {
    const cli = runCli(['--help']);
    expect(await cli.exited).to.equal(0);
    for (const flag of [
      '--host', '--port', '--data-dir', '--chain-id', '--mnemonic', '--accounts', '--balance', '--genesis', '--hardfork', '--cors', '--log-level', '--help',
      '--ws-max-backlog', '--ws-max-backlog-total', '--http-header-timeout', '--http-read-timeout', '--max-connections', '--fresh', '--silent',
    ]) {
      expect(cli.stdout(), flag).to.include(flag);
    }
  });

  it('prints the URL, the data dir and the dev accounts with their private keys on start', async () => {
    const { cli, url } = await startCli(dataDir);
    expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    const out = cli.stdout();
    expect(out).to.include(dataDir);
    expect(out).to.include('31337');
    DEV_ADDRESSES.forEach((address, i) => expect(out).to.match(new RegExp(`\\(${i}\\) ${address}\\s+${DEV_KEYS[i]}`)));
    expect(out.match(/^\(\d+\) 0x[0-9a-f]{40}\s+0x[0-9a-f]{64}$/gm)).to.have.length(20);
  });

  it('serves JSON-RPC at the URL it printed', async () => {
    const { url } = await startCli(dataDir);
    expect(await rpc(url, 'eth_chainId')).to.equal('0x7a69');
    expect(await rpc(url, 'eth_blockNumber')).to.equal('0x0');
  });

  it('applies the genesis flags it is given', async () => {
    const { url, cli } = await startCli(dataDir, ['--chain-id', '1337', '--accounts', '20', '--balance', '5']);
    expect(await rpc(url, 'eth_chainId')).to.equal('0x539');
    expect(await rpc(url, 'eth_getBalance', [DEV_ADDRESSES[0], 'latest'])).to.equal(`0x${(5n * 10n ** 18n).toString(16)}`);
    expect(cli.stdout()).to.include('1337');
  });

  it('starts the node when no command is given', async () => {
    const cli = runCli(['--port', '0', '--data-dir', dataDir, '--log-level', 'error']);
    const [, url] = await cli.waitFor(/listening on (http:\/\/\S+)/);
    expect(await rpc(url, 'eth_chainId')).to.equal('0x7a69');
  });

  it('shuts down cleanly on SIGTERM with exit code 0', async () => {
    const { cli } = await startCli(dataDir);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).to.equal(0);
  });

  it('shuts down cleanly on SIGINT with exit code 0, leaving the chain for the next start', async () => {
    const first = await startCli(dataDir);
    await rpc(first.url, 'eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
    const head = await rpc<{ hash: string }>(first.url, 'eth_getBlockByNumber', ['latest', false]);
    first.cli.child.kill('SIGINT');
    expect(await first.cli.exited).to.equal(0);

    const second = await startCli(dataDir);
    expect(await rpc(second.url, 'eth_getBlockByNumber', ['latest', false])).to.deep.include({ hash: head.hash, number: '0x1' });
    second.cli.child.kill('SIGTERM');
    expect(await second.cli.exited).to.equal(0);
  });

  it('exits non-zero, naming the flag, for a port that is not a number', async () => {
    const cli = runCli(['start', '--port', 'abc', '--data-dir', dataDir]);
    expect(await cli.exited).to.not.equal(0);
    expect(cli.stderr()).to.include('--port');
    expect(cli.stdout()).to.not.match(/listening/);
  });

  it('exits non-zero, naming the flag, for an unknown hardfork', async () => {
    const cli = runCli(['start', '--hardfork', 'atlantis', '--data-dir', dataDir]);
    expect(await cli.exited).to.not.equal(0);
    expect(cli.stderr()).to.include('--hardfork');
  });

  it('answers 503 to a connection past --max-connections', async () => {
    const { url } = await startCli(dataDir, ['--max-connections', '1']);
    const { hostname, port } = new URL(url);
    const first = connect(Number(port), hostname);
    await new Promise((resolve) => first.once('connect', resolve));
    try {
      const { status, json } = await rpcRaw(url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
      expect(status).to.equal(503);
      expect(json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32005, message: 'too many connections: limit 1' } });
    } finally {
      first.destroy();
    }
  });

  it('exits non-zero, naming both flags, when --http-header-timeout is longer than --http-read-timeout', async () => {
    const cli = runCli(['start', '--http-header-timeout', '40', '--data-dir', dataDir]);
    expect(await cli.exited).to.not.equal(0);
    expect(cli.stderr()).to.include('--http-header-timeout (40) must not exceed --http-read-timeout (30)');
  });

  it('exits non-zero, naming the flag, for a flag it does not know', async () => {
    const cli = runCli(['start', '--frobnicate', '--data-dir', dataDir]);
    expect(await cli.exited).to.not.equal(0);
    expect(cli.stderr()).to.include('--frobnicate');
  });

  it('exits non-zero with a message naming the problem when the data dir holds another chain', async () => {
    const first = await startCli(dataDir);
    first.cli.child.kill('SIGTERM');
    expect(await first.cli.exited).to.equal(0);
    const cli = runCli(['start', '--port', '0', '--data-dir', dataDir, '--chain-id', '999']);
    expect(await cli.exited).to.not.equal(0);
    expect(cli.stderr()).to.match(/chain id 31337.*chain id 999/);
    expect(cli.stderr()).to.include('--data-dir');
  });
});
