// The CLI runs its bundle (dist/bundle/, scripts/bundle.mjs), and refuses to start on one older than the last
// compile, so edited code never runs from a stale bundle and no other build of the node answers instead.
import { expect } from 'chai';
import { statSync, utimesSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { killAll, listening, runCli } from '../helpers/cli.js';
import { MODULE_LOG } from '../helpers/module-log.js';
import { DEV_ADDRESSES } from '../helpers/node.js';
import { rpc } from '../helpers/rpc.js';
import { until } from '../helpers/wait.js';

const BUNDLE_ENTRY = fileURLToPath(new URL('../../bundle/cli-main.js', import.meta.url));
const LAST_COMPILE = fileURLToPath(new URL('../../.tsbuildinfo', import.meta.url));

describe('the CLI bundle', function () {
  this.timeout(60_000);
  afterEach(() => killAll());

  it('is what a node runs after a build', async () => {
    const cli = runCli(['start', '--port', '0'], { node: ['--import', MODULE_LOG] });
    expect(await rpc(await listening(cli), 'eth_chainId', [])).to.equal('0x7a69');
    expect(cli.stderr()).to.include('loaded the bundle');
  });

  it('holds all the node runs, packages included, but the native addons: an executing call loads nothing else from node_modules', async () => {
    const cli = runCli(['start', '--port', '0'], { node: ['--import', MODULE_LOG] });
    const url = await listening(cli);
    await rpc(url, 'eth_call', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }, 'latest']);
    await until(() => cli.stderr().includes('loaded package @ethereumjs/evm'), 'the node to load the EVM');
    const fromNodeModules = [...cli.stderr().matchAll(/^loaded from node_modules (\S+)$/gm)].map((match) => match[1]);
    expect(fromNodeModules).to.deep.equal(['classic-level']);
  });

  it('is refused once it is older than the last compile: the CLI exits saying to build, running nothing', async () => {
    const { atime, mtime } = statSync(BUNDLE_ENTRY);
    const compiled = statSync(LAST_COMPILE).mtime;
    utimesSync(BUNDLE_ENTRY, atime, new Date(compiled.getTime() - 60_000));
    try {
      const cli = runCli(['start', '--port', '0'], { node: ['--import', MODULE_LOG] });
      expect(await cli.exited).to.equal(1);
      expect(cli.stderr()).to.include('older than the last compile: run `npm run build`');
      expect(cli.stderr()).not.to.include('loaded package');
      expect(cli.stdout()).to.equal('');
    } finally {
      utimesSync(BUNDLE_ENTRY, atime, mtime);
    }
  });
});
