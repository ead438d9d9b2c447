// State dumps both ways with anvil itself: this node's dump loads in anvil (its --load-state file and its
// anvil_loadState), and anvil's anvil_dumpState loads here. anvil comes from Foundry, not npm or Debian, so CI
// machines do not have it: without it this spec is skipped, saying so (test/fixtures/anvil/ holds dumps it made,
// which test/rpc/anvil/loadState.spec.ts reads everywhere). ANVIL_PATH names the binary.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';
import { firstRunnable } from '../helpers/required-tool.js';
import { rpc } from '../helpers/rpc.js';
import { tempDirRemovedAtExit } from '../helpers/temp-dir.js';
import { until } from '../helpers/wait.js';

const ANVIL = firstRunnable([process.env.ANVIL_PATH, 'anvil', '/tmp/peerbench/.peers/anvil/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil'], ['--version'])?.command;
const CONTRACT = '0x2222222222222222222222222222222222222222';
/** Runtime code that returns slot 1. */
const RETURNS_SLOT_1 = '0x60015460005260206000f3';
const WORD_42 = `0x${'00'.repeat(31)}2a`;

/** anvil on a free port, with `args`; resolves once it answers. */
async function startAnvil(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(ANVIL!, ['--port', String(port), '--silent', ...args], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await until(() => rpc(url, 'eth_chainId').then(() => true, () => false), `anvil on port ${port}`, 15_000);
  return { url, child };
}

describe('state dumps with anvil itself', function () {
  this.timeout(60_000);
  let node: TestNode | undefined;
  let anvil: ChildProcess | undefined;
  let dir: string;

  before(function () {
    if (ANVIL === undefined) {
      console.warn('\n  !!! SKIPPED: test/e2e/anvil-state.spec.ts — no anvil on this machine (Foundry is not on CI machines; ANVIL_PATH names one); test/fixtures/anvil/ stands in.\n');
      this.skip();
    }
    dir = tempDirRemovedAtExit('evm-node-anvil-state-');
  });
  afterEach(async () => {
    anvil?.kill('SIGKILL');
    anvil = undefined;
    await node?.destroy();
    node = undefined;
  });
  after(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** A transfer and a contract with a slot on this node: what the dump carries to anvil. */
  async function ourChain(): Promise<TestNode> {
    const ours = await startTestNode();
    await ours.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0xde0b6b3a7640000' }]);
    await ours.call('anvil_setCode', [CONTRACT, RETURNS_SLOT_1]);
    await ours.call('anvil_setStorageAt', [CONTRACT, '0x1', '0x2a']);
    return ours;
  }

  async function expectSameAccounts(url: string, ours: TestNode): Promise<void> {
    for (const address of [DEV_ADDRESSES[0], DEV_ADDRESSES[1], CONTRACT]) {
      expect(await rpc(url, 'eth_getBalance', [address, 'latest']), address).to.equal(await ours.call('eth_getBalance', [address, 'latest']));
      expect(await rpc(url, 'eth_getTransactionCount', [address, 'latest']), address).to.equal(await ours.call('eth_getTransactionCount', [address, 'latest']));
    }
    expect(await rpc(url, 'eth_getCode', [CONTRACT, 'latest'])).to.equal(RETURNS_SLOT_1);
    expect(await rpc(url, 'eth_call', [{ to: CONTRACT }, 'latest'])).to.equal(WORD_42);
  }

  it("anvil starts from this node's dump (--load-state), at its head block, and mines on it", async () => {
    node = await ourChain();
    const file = join(dir, 'ours.json');
    writeFileSync(file, gunzipSync(Buffer.from((await node.call('anvil_dumpState', [])).slice(2), 'hex')));
    const started = await startAnvil(['--load-state', file]);
    anvil = started.child;
    await expectSameAccounts(started.url, node);
    const head = await node.call('eth_getBlockByNumber', ['latest', false]);
    const theirs = await rpc<{ hash: string; number: string }>(started.url, 'eth_getBlockByNumber', ['latest', false]);
    expect([theirs.number, theirs.hash]).to.deep.equal([head!.number, head!.hash]);
    await rpc(started.url, 'eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[2], value: '0x1' }]);
    // anvil answers a send before its automine has mined it.
    await until(async () => (await rpc(started.url, 'eth_blockNumber')) === '0x2', 'anvil to mine block 2 on the loaded state');
  });

  it("anvil_loadState in anvil takes this node's anvil_dumpState answer", async () => {
    node = await ourChain();
    const started = await startAnvil([]);
    anvil = started.child;
    expect(await rpc(started.url, 'anvil_loadState', [await node.call('anvil_dumpState', [])])).to.equal(true);
    await expectSameAccounts(started.url, node);
  });

  it("this node's anvil_loadState takes anvil's anvil_dumpState answer", async () => {
    const started = await startAnvil([]);
    anvil = started.child;
    await rpc(started.url, 'eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0xde0b6b3a7640000' }]);
    await rpc(started.url, 'anvil_setCode', [CONTRACT, RETURNS_SLOT_1]);
    await rpc(started.url, 'anvil_setStorageAt', [CONTRACT, `0x${'00'.repeat(31)}01`, WORD_42]);
    node = await startTestNode();
    expect(await node.call('anvil_loadState', [await rpc<string>(started.url, 'anvil_dumpState')])).to.equal(true);
    for (const address of [DEV_ADDRESSES[0], DEV_ADDRESSES[1]]) {
      expect(await node.call('eth_getBalance', [address, 'latest'])).to.equal(await rpc(started.url, 'eth_getBalance', [address, 'latest']));
    }
    expect(await node.call('eth_call', [{ to: CONTRACT }, 'latest'])).to.equal(WORD_42);
  });
});
