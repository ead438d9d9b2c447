// A data dir is never silently replaced: one that holds a database LevelDB could not open as it
// was is refused at start-up with one line naming the file and the cause, and nothing in it is
// created, changed or deleted. Each kind of damage is made on a copy of a real chain's data dir.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ClassicLevel } from 'classic-level';
import { utf8ToBytes } from '@ethereumjs/util';
import { signTransfer, WALLETS } from '../durability/support.js';
import { CLI_PATH, spawnNode } from '../helpers/child-node.js';
import { startTestNode } from '../helpers/node.js';

/** Runs `cli.js start` on `dir`; resolves with its exit code and stderr once it ends (or is killed after 20 s). */
function start(dir: string, flags: string[] = []): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI_PATH, 'start', '--port', '0', '--data-dir', dir, ...flags], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

/** Name and contents of every file in `dir`: what a refusal before LevelDB opens the dir must leave as it was. */
async function files(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) found[name] = (await readFile(join(dir, name))).toString('base64');
  return found;
}

/**
 * Every key and value of the database in `dir`: what a refusal after LevelDB opened the dir must
 * leave as it was (opening lets LevelDB write its log into a table: the files change, the data not).
 */
async function entries(dir: string): Promise<string[]> {
  const db = new ClassicLevel(dir, { keyEncoding: 'hex', valueEncoding: 'hex', createIfMissing: false });
  const found: string[] = [];
  for await (const [key, value] of db.iterator()) found.push(`${key}=${value}`);
  await db.close();
  return found;
}

describe('storage: data dirs that cannot be opened as they were are refused at start-up', function () {
  this.timeout(60_000);
  let root: string;
  let chainDir: string;
  let dir: string;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'evm-node-datadir-'));
    chainDir = join(root, 'chain');
    // Two runs: the second start's recovery writes the first run's log into a table (.ldb).
    for (const nonces of [[0, 1, 2], [3, 4]]) {
      const node = await startTestNode({}, chainDir);
      for (const nonce of nonces) await node.call('eth_sendRawTransaction', [signTransfer(WALLETS[1], nonce).raw]);
      await node.stop();
    }
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(root, 'copy-'));
    await cp(chainDir, dir, { recursive: true });
  });

  const manifest = async () => (await readFile(join(dir, 'CURRENT'), 'latin1')).trim();
  const table = async () => (await readdir(dir)).find((name) => name.endsWith('.ldb'))!;

  /**
   * Starts the CLI on the damaged copy: exit 1, one line on stderr matching `message`, and the dir
   * as it was — its files when the damage is found before LevelDB opens it, else its data.
   */
  async function expectRefused(message: RegExp, unchanged: (dir: string) => Promise<unknown> = files): Promise<void> {
    const before = await unchanged(dir);
    const { code, stderr } = await start(dir);
    expect(stderr, stderr).to.match(/^evm-node: [^\n]+\n$/);
    expect(stderr, stderr).to.match(message);
    expect(code).to.equal(1);
    expect(await unchanged(dir)).to.deep.equal(before);
  }

  it('serves the undamaged copy (the damage below is what the node refuses)', async () => {
    const node = await startTestNode({}, dir);
    expect(await node.call('eth_blockNumber', [])).to.equal('0x5');
    await node.stop();
  });

  it('refuses a dir whose CURRENT file is missing, naming the MANIFEST it should name', async () => {
    const live = await manifest();
    await unlink(join(dir, 'CURRENT'));
    await expectRefused(new RegExp(`holds a database \\(.*\\) but not its CURRENT file \\(it would read ${live} — the newest MANIFEST here\\); opening it would start a new chain`));
  });

  it('refuses a dir whose CURRENT file names no MANIFEST', async () => {
    await writeFile(join(dir, 'CURRENT'), 'garbage');
    await expectRefused(/CURRENT is damaged: it should name the live MANIFEST on one line, but reads "garbage"/);
  });

  it('refuses a dir whose MANIFEST is missing', async () => {
    const live = await manifest();
    await unlink(join(dir, live));
    await expectRefused(new RegExp(`${live}, which CURRENT names, is missing`));
  });

  it('refuses a dir whose MANIFEST is garbled', async () => {
    const path = join(dir, await manifest());
    const bytes = await readFile(path);
    // A byte in the middle of the first record's payload (its length is in bytes 4 and 5 of its header).
    bytes[7 + (bytes.readUInt16LE(4) >> 1)] ^= 0xff;
    await writeFile(path, bytes);
    await expectRefused(/MANIFEST-\d+ is damaged: checksum mismatch in the record at byte 0$/m);
  });

  it('refuses a dir whose MANIFEST is cut short', async () => {
    await truncate(join(dir, await manifest()), 20);
    await expectRefused(/MANIFEST-\d+ is damaged: its 20 bytes record no log number, no next file number, no last sequence number/);
  });

  it('refuses a dir with a truncated table', async () => {
    const name = await table();
    const { size } = await stat(join(dir, name));
    await truncate(join(dir, name), size - 100);
    await expectRefused(new RegExp(`${name} is truncated: ${size - 100} bytes, where MANIFEST-\\d+ records ${size}`));
  });

  it('refuses a dir with a table that does not end in a table footer', async () => {
    const path = join(dir, await table());
    const bytes = await readFile(path);
    bytes[bytes.length - 1] ^= 0xff;
    await writeFile(path, bytes);
    await expectRefused(/\.ldb is damaged: it does not end in a table footer/);
  });

  it('refuses a dir with a missing table', async () => {
    const name = await table();
    await unlink(join(dir, name));
    await expectRefused(new RegExp(`${name}, a table MANIFEST-\\d+ lists, is missing`));
  });

  it('refuses a dir whose head block has lost its transactions\' records (their receipts)', async () => {
    const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
    const records = { gte: utf8ToBytes('!x!'), lt: utf8ToBytes('!x"') };
    for await (const key of db.keys(records)) await db.del(key);
    await db.close();
    await expectRefused(/its chain is damaged: the record of transaction 0 of the head, block 5 \(0x[0-9a-f]{64}\), is missing/, entries);
  });

  it('refuses a dir holding a database that is not a chain', async () => {
    const other = await mkdtemp(join(root, 'other-'));
    const db = new ClassicLevel(other);
    await db.put('some', 'thing');
    await db.close();
    dir = other;
    await expectRefused(/holds a database but no chain \(no genesis record; its first key is 0x736f6d65\)/, entries);
  });

  it('refuses a dir another node is serving', async () => {
    // In another process: LevelDB's lock is a POSIX record lock, which this process would drop as
    // soon as it opened and closed LOCK itself.
    const serving = await spawnNode(dir);
    try {
      const { code, stderr } = await start(dir);
      expect(stderr).to.match(new RegExp(`^evm-node: the data dir \\S+ is in use by another process \\(pid ${serving.pid}: [^\\n]*\\): it holds \\S+/LOCK; stop that node or choose another --data-dir\n$`));
      expect(code).to.equal(1);
    } finally {
      await serving.stop();
    }
  });

  it('creates a data dir that does not exist yet', async () => {
    const fresh = join(root, 'fresh', 'data');
    const node = await startTestNode({}, fresh);
    expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
    await node.stop();
    expect(await readdir(fresh)).to.include('CURRENT');
  });

  it('leaves no data dir behind when the start is refused for a genesis file it cannot read', async () => {
    const fresh = join(root, 'never');
    const { code, stderr } = await start(fresh, ['--genesis', join(root, 'missing.json')]);
    expect(stderr).to.match(/^evm-node: cannot read --genesis \S+missing\.json: no such file\n$/);
    expect(code).to.equal(2);
    expect(await readdir(root)).not.to.include('never');
  });
});
