// A real full disk: the node (the CLI, a child process) on a small tmpfs, the tmpfs filled up,
// transactions refused, the space freed, more transactions acknowledged, kill -9, restart: every
// acknowledged transaction is there. Mounting needs root (as here and in CI); elsewhere it skips.
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { spawnNode, type ChildNode } from '../helpers/child-node.js';
import { rpc, RpcCallError } from '../helpers/rpc.js';
import { signTransfer, waitFor, WALLETS } from '../durability/support.js';

/** Writes zeros to `path` until the file system says it is full. */
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

describe('storage: a real full disk (tmpfs)', function () {
  this.timeout(120_000);
  let mount: string;
  let mounted = false;
  const running: ChildNode[] = [];

  before(function () {
    if (process.getuid?.() === 0) return;
    console.warn(`      skipped: mounting a tmpfs needs root, and this runs as uid ${process.getuid?.()} (the in-process fault specs still run)`);
    this.skip();
  });
  beforeEach(async () => {
    mount = await mkdtemp(join(tmpdir(), 'evm-node-tmpfs-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mount]);
    mounted = true;
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((node) => node.kill9()));
    if (mounted) execFileSync('umount', [mount]);
    mounted = false;
    await rm(mount, { recursive: true, force: true });
  });

  it('refuses writes while the disk is full, takes them again once it is not, and loses nothing acknowledged across kill -9', async () => {
    const dataDir = join(mount, 'data');
    const filler = join(mount, 'filler');
    const wallet = WALLETS[1];
    let node = await spawnNode(dataDir);
    running.push(node);
    const acked: string[] = [];
    let nonce = 0;
    const send = async () => {
      const tx = signTransfer(wallet, nonce);
      const hash = await rpc<string>(node.url, 'eth_sendRawTransaction', [tx.raw]);
      acked.push(hash);
      nonce++;
    };
    for (let i = 0; i < 50; i++) await send();

    fill(filler);
    // The first sends may still fit in what the file system had left; then every one is refused.
    let refused: RpcCallError | undefined;
    for (let i = 0; i < 200 && refused === undefined; i++) {
      try {
        await send();
      } catch (error) {
        if (!(error instanceof RpcCallError)) throw error;
        refused = error;
      }
    }
    expect(refused, 'a send refused once the disk is full').to.be.instanceOf(RpcCallError);
    expect(refused!.code).to.equal(-32000);
    expect(refused!.message).to.match(/^disk full: no space left on device \(ENOSPC\) writing \S+; the node refuses writes/);
    for (let i = 0; i < 5; i++) {
      const again = await rpc(node.url, 'eth_sendRawTransaction', [signTransfer(wallet, nonce).raw]).catch((error: unknown) => error);
      expect(again).to.be.instanceOf(RpcCallError).with.property('message', refused!.message);
    }
    const head = await rpc<string>(node.url, 'eth_blockNumber');
    const health = await fetch(`${node.url.replace(/\/$/, '')}/health`);
    expect(health.status).to.equal(503);
    expect(await health.json()).to.include({ ok: false, error: refused!.message });
    // Reads go on.
    expect(await rpc(node.url, 'eth_getTransactionReceipt', [acked[0]])).to.have.property('status', '0x1');
    expect(await rpc(node.url, 'eth_getTransactionCount', [wallet.address, 'latest'])).to.equal(head);

    await unlink(filler);
    expect(await waitFor(async () => (await fetch(`${node.url.replace(/\/$/, '')}/health`)).status === 200, 10_000), 'healthy once space is freed').to.equal(true);
    for (let i = 0; i < 50; i++) await send();
    // One block per transaction, those acknowledged (journaled) while no block could land included.
    expect(Number(await rpc<string>(node.url, 'eth_blockNumber'))).to.equal(acked.length);
    await node.kill9();

    node = await spawnNode(dataDir, ['--no-mining']);
    running.push(node);
    expect(Number(await rpc<string>(node.url, 'eth_blockNumber'))).to.equal(acked.length);
    for (const hash of acked) {
      const receipt = await rpc<{ status: string } | null>(node.url, 'eth_getTransactionReceipt', [hash]);
      expect(receipt, `receipt of acknowledged ${hash}`).to.have.property('status', '0x1');
    }
  });

  it('refuses an anvil_mine whose blocks would not fit the disk, naming its free space, and mines nothing', async () => {
    const node = await spawnNode(join(mount, 'data'), ['--no-mining']);
    running.push(node);
    // 10,000 empty blocks take ~60-120 MB on disk; the tmpfs holds 16 MB.
    const refused = await rpc(node.url, 'anvil_mine', ['0x2710']).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(RpcCallError).with.property('code', -32602);
    expect((refused as RpcCallError).message).to.match(
      /^invalid argument 0 \(blocks\): 10000 blocks do not fit: the data dir's disk has \d+ MiB free, room for about \d+ more; mine fewer, or free some disk space$/,
    );
    expect(await rpc(node.url, 'eth_blockNumber')).to.equal('0x0');
    await rpc(node.url, 'anvil_mine', ['0x64']);
    expect(await rpc(node.url, 'eth_blockNumber')).to.equal('0x64');
  });
});
