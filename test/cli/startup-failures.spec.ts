// Every way `start` can be refused ends in one line on stderr naming the problem (and what to do),
// a documented exit code (2: the command line, 1: the machine), no stack trace, and nothing written.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { spawnNode } from '../helpers/child-node.js';
import { killAll, runCli } from '../helpers/cli.js';

interface Refusal {
  code: number | string;
  stdout: string;
  stderr: string;
}

describe('start-up failures: one clear line each, nothing written', () => {
  let cwd: string;
  let dataDir: string;

  beforeEach(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'evm-node-refused-'));
    dataDir = join(cwd, 'data');
  });
  afterEach(async () => {
    killAll();
    await rm(cwd, { recursive: true, force: true });
  });

  /** Runs `start` with `flags`, which must fail; answers its exit code and output. */
  async function refused(flags: string[]): Promise<Refusal> {
    const cli = runCli(['start', '--port', '0', ...flags], { cwd });
    const code = await cli.exited;
    return { code, stdout: cli.stdout(), stderr: cli.stderr() };
  }

  /** The refusal is exactly `line` (one line, no stack), with exit `code`, and `cwd` holds only `left`. */
  async function expectRefusal(refusal: Refusal, line: string | RegExp, code: number, left: string[] = []): Promise<void> {
    expect(refusal.stderr, 'one line on stderr').to.match(/^evm-node: [^\n]+\n$/);
    if (typeof line === 'string') expect(refusal.stderr).to.equal(`evm-node: ${line}\n`);
    else expect(refusal.stderr).to.match(line);
    expect(refusal.code).to.equal(code);
    expect(refusal.stdout).to.equal('');
    expect((await readdir(cwd)).sort(), 'what the failed start left').to.deep.equal(left);
  }

  describe('the port', () => {
    let holder: Server;
    let port: number;
    beforeEach(async () => {
      holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      port = (holder.address() as { port: number }).port;
    });
    afterEach(() => new Promise((resolve) => holder.close(resolve)));

    it('is in use: names the process holding it, before the data dir is created', async () => {
      const refusal = await refused(['--port', String(port), '--data-dir', dataDir]);
      await expectRefusal(
        refusal,
        new RegExp(`^evm-node: port ${port} on 127\\.0\\.0\\.1 is in use by another process \\(pid ${process.pid}: [^\\n]+\\); stop it, or choose another --port \\(0 picks a free one\\)\\n$`),
        1,
      );
    });

    it('is in use, with --fresh: the data dir keeps its chain', async () => {
      await mkdir(dataDir);
      await writeFile(join(dataDir, 'CURRENT'), 'MANIFEST-000001\n');
      const refusal = await refused(['--port', String(port), '--data-dir', dataDir, '--fresh']);
      expect(refusal.code).to.equal(1);
      expect(await readFile(join(dataDir, 'CURRENT'), 'utf8')).to.equal('MANIFEST-000001\n');
    });
  });

  describe('the data dir', () => {
    it('is a file: said so, and the file is left as it was', async () => {
      await writeFile(dataDir, 'notes');
      await expectRefusal(await refused(['--data-dir', dataDir]), `the data dir ${dataDir} is a file, not a directory`, 1, ['data']);
      expect(await readFile(dataDir, 'utf8')).to.equal('notes');
    });

    it('lies below a file: said so, naming the file, which is left as it was', async () => {
      await writeFile(dataDir, 'notes');
      const below = join(dataDir, 'chain', 'db');
      await expectRefusal(await refused(['--data-dir', below]), `cannot create the data dir ${below}: ${dataDir} is a file, not a directory; choose another --data-dir`, 1, ['data']);
      expect(await readFile(dataDir, 'utf8')).to.equal('notes');
    });

    it('lies below a read-only file system: said so, naming where', async function () {
      // Mounting needs root; as root a mode without write permission would not stop the node, a read-only mount does.
      if (process.getuid?.() !== 0) this.skip();
      const readOnly = join(cwd, 'ro');
      await mkdir(readOnly);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', readOnly]);
      try {
        const below = join(readOnly, 'data');
        await expectRefusal(await refused(['--data-dir', below]), `cannot create the data dir ${below}: ${readOnly} is on a read-only file system; choose another --data-dir`, 1, ['ro']);
      } finally {
        execFileSync('umount', [readOnly]);
      }
    });

    it('is in use by another node: names its process, and --fresh will not wipe it either', async () => {
      const serving = await spawnNode(dataDir);
      try {
        const before = (await readdir(dataDir)).sort();
        const line = new RegExp(
          `^evm-node: the data dir ${dataDir} is in use by another process \\(pid ${serving.pid}: [^\\n]*cli\\.js start[^\\n]*\\): it holds ${dataDir}/LOCK; stop that node or choose another --data-dir\\n$`,
        );
        await expectRefusal(await refused(['--data-dir', dataDir]), line, 1, ['data']);
        await expectRefusal(await refused(['--data-dir', dataDir, '--fresh']), line, 1, ['data']);
        expect((await readdir(dataDir)).sort()).to.deep.equal(before);
      } finally {
        await serving.stop();
      }
    });
  });

  describe('the mnemonic', () => {
    it('has a word BIP-39 does not know: names the word and the nearest one', async () => {
      const mnemonic = 'test test test tset test test test test test test test junk';
      await expectRefusal(
        await refused(['--data-dir', dataDir, '--mnemonic', mnemonic]),
        '--mnemonic: word 4, "tset", is not in the BIP-39 English word list (did you mean "test"?)',
        2,
      );
    });

    it('has the wrong number of words', async () => {
      await expectRefusal(await refused(['--data-dir', dataDir, '--mnemonic', 'test test test']), '--mnemonic: it has 3 words; a BIP-39 mnemonic has 12, 15, 18, 21 or 24', 2);
    });

    it('fails its checksum', async () => {
      await expectRefusal(
        await refused(['--data-dir', dataDir, '--mnemonic', Array(12).fill('test').join(' ')]),
        '--mnemonic: its checksum does not match (the last word carries it): check the order and spelling of the words',
        2,
      );
    });
  });

  describe('the genesis file', () => {
    it('is missing', async () => {
      await expectRefusal(await refused(['--data-dir', dataDir, '--genesis', join(cwd, 'missing.json')]), `cannot read --genesis ${join(cwd, 'missing.json')}: no such file`, 2);
    });

    it('is not JSON: the parser’s words on one line', async () => {
      await writeFile(join(cwd, 'genesis.json'), 'nope\n');
      await expectRefusal(await refused(['--data-dir', dataDir, '--genesis', join(cwd, 'genesis.json')]), /^evm-node: --genesis \S+genesis\.json is not JSON: [^\n]+\n$/, 2, ['genesis.json']);
    });

    it('is not a geth-format genesis', async () => {
      await writeFile(join(cwd, 'genesis.json'), '{"config":{"chainId":5}}');
      await expectRefusal(
        await refused(['--data-dir', dataDir, '--genesis', join(cwd, 'genesis.json')]),
        /^evm-node: --genesis \S+genesis\.json is not a geth-format genesis: [^\n]*difficulty,gasLimit,nonce,alloc[^\n]*\n$/,
        2,
        ['genesis.json'],
      );
    });

    it('holds an account the chain cannot be built with: refused after the data dir was made, which is removed again', async () => {
      const genesis = JSON.parse(await readFile(new URL('../../../test/fixtures/execution-apis/genesis.json', import.meta.url), 'utf8'));
      genesis.alloc = { '0xnothex': { balance: '0x1' } };
      await writeFile(join(cwd, 'genesis.json'), JSON.stringify(genesis));
      await expectRefusal(
        await refused(['--data-dir', join(dataDir, 'chain'), '--genesis', join(cwd, 'genesis.json')]),
        /^evm-node: --genesis \S+genesis\.json cannot be used: Invalid address[^\n]*\n$/,
        2,
        ['genesis.json'],
      );
    });
  });

  describe('the command line', () => {
    it('has a mistyped flag: suggests the nearest', async () => {
      await expectRefusal(await refused(['--data-dri', dataDir]), 'unknown flag --data-dri (did you mean --data-dir?); see --help', 2);
      await expectRefusal(await refused(['--blocktime', '1']), 'unknown flag --blocktime (did you mean --block-time?); see --help', 2);
      await expectRefusal(await refused(['--hostname', 'localhost']), 'unknown flag --hostname (did you mean --host?); see --help', 2);
    });

    it('has a mistyped value: suggests the nearest', async () => {
      await expectRefusal(await refused(['--log-level', 'inf']), '--log-level must be one of error, warn, info, debug, got "inf" (did you mean info?)', 2);
      await expectRefusal(await refused(['--hardfork', 'pragueee']), /^evm-node: --hardfork must be one of homestead, [^\n]*, osaka, got "pragueee" \(did you mean prague\?\)\n$/, 2);
    });

    it('bounds the answers and traces it is given bounds for: within what V8 can serialise, at least a second', async () => {
      await expectRefusal(await refused(['--max-response-bytes', '1000000000']), '--max-response-bytes must be at most 536870888 (the longest string V8 holds)', 2);
      await expectRefusal(await refused(['--max-response-bytes', '100']), '--max-response-bytes must be an integer ≥ 1024, got "100"', 2);
      await expectRefusal(await refused(['--trace-max-timeout', '0']), '--trace-max-timeout must be an integer ≥ 1, got "0"', 2);
    });

    it('has a stray argument: refused, not ignored (the node would serve on 8545 instead)', async () => {
      await expectRefusal(await refused(['8546']), 'unexpected argument "8546": start takes flags only (did you mean --port 8546?); see --help', 2);
      await expectRefusal(await refused(['foo']), 'unexpected argument "foo": start takes flags only; see --help', 2);
    });

    it('has a mistyped command: suggests the nearest', async () => {
      const cli = runCli(['strat', '--port', '0'], { cwd });
      await expectRefusal({ code: await cli.exited, stdout: cli.stdout(), stderr: cli.stderr() }, 'unknown command "strat" (did you mean start?); see --help', 2);
    });
  });
});
