// --dump-state, --load-state and --state: the state in a file in anvil's format, written on a clean shutdown
// (whole, never half a file) and read at the next start, as anvil's own flags do.
import { expect } from 'chai';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { killAll, listening, runCli } from '../helpers/cli.js';
import { DEV_ADDRESSES } from '../helpers/node.js';
import { rpc } from '../helpers/rpc.js';
import { anvilFixture, type AnvilDump } from '../helpers/state-dump-specs.js';
import { tempDirRemovedAtExit } from '../helpers/temp-dir.js';

const CONTRACT = '0x1111111111111111111111111111111111111111';

describe('--dump-state, --load-state, --state', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = tempDirRemovedAtExit('evm-node-state-file-');
  });
  afterEach(async () => {
    killAll();
    await rm(dir, { recursive: true, force: true });
  });

  /** Starts the CLI with `flags`, runs `use` on its URL, stops it with SIGTERM; answers its exit code. */
  async function session(flags: string[], use: (url: string) => Promise<void> = async () => undefined): Promise<number | string> {
    const cli = runCli(['start', '--port', '0', '--log-level', 'error', ...flags]);
    await use(await listening(cli));
    cli.child.kill('SIGTERM');
    return cli.exited;
  }

  it('--dump-state writes the state on SIGTERM, in anvil format, whole; --load-state starts from it', async () => {
    const file = join(dir, 'state.json');
    const code = await session(['--dump-state', file], async (url) => {
      await rpc(url, 'anvil_setBalance', [CONTRACT, '0x2a']);
      await rpc(url, 'eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
    });
    expect(code).to.equal(0);
    expect(readdirSync(dir)).to.deep.equal(['state.json']);
    const dump = JSON.parse(readFileSync(file, 'utf8')) as AnvilDump;
    expect(dump.accounts[CONTRACT]!.balance).to.equal('0x2a');
    expect(dump.best_block_number).to.equal(1);
    await session(['--load-state', file], async (url) => {
      expect(await rpc(url, 'eth_getBalance', [CONTRACT, 'latest'])).to.equal('0x2a');
      expect(await rpc(url, 'eth_getTransactionCount', [DEV_ADDRESSES[0], 'latest'])).to.equal('0x1');
    });
  });

  it('--state loads the file when it is there and writes it back on SIGTERM: a chain in memory carries on', async () => {
    const file = join(dir, 'chain.json');
    await session(['--state', file], async (url) => {
      await rpc(url, 'anvil_setNonce', [DEV_ADDRESSES[1], '0x7']);
    });
    await session(['--state', file], async (url) => {
      expect(await rpc(url, 'eth_getTransactionCount', [DEV_ADDRESSES[1], 'latest'])).to.equal('0x7');
      await rpc(url, 'anvil_setNonce', [DEV_ADDRESSES[1], '0x8']);
    });
    expect((JSON.parse(readFileSync(file, 'utf8')) as AnvilDump).accounts[DEV_ADDRESSES[1]]!.nonce).to.equal(8);
  });

  it('a directory gets state.json inside it, as in anvil', async () => {
    const into = join(dir, 'states');
    mkdirSync(into);
    await session(['--dump-state', into]);
    expect(existsSync(join(into, 'state.json'))).to.equal(true);
  });

  it("--load-state takes anvil's own file", async () => {
    const file = join(dir, 'anvil.json');
    writeFileSync(file, anvilFixture('state.json'));
    await session(['--load-state', file], async (url) => {
      expect(await rpc(url, 'eth_getCode', [CONTRACT, 'latest'])).to.equal('0x60015460005260206000f3');
    });
  });

  it('--load-state refuses a missing or malformed file in one line, exit 2', async () => {
    const missing = runCli(['start', '--port', '0', '--load-state', join(dir, 'nope.json')]);
    expect(await missing.exited).to.equal(2);
    expect(missing.stderr()).to.equal(`evm-node: cannot read --load-state ${join(dir, 'nope.json')}: no such file\n`);
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"accounts": 5}');
    const bad = runCli(['start', '--port', '0', '--load-state', file]);
    expect(await bad.exited).to.equal(2);
    expect(bad.stderr()).to.match(/^evm-node: --load-state \S+bad\.json cannot be loaded: [^\n]+\n$/);
  });
});
