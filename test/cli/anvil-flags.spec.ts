// anvil's flags, under anvil's names: its short forms and aliases, a fractional block time, a balance with
// decimals, the genesis timestamp and base fee, the gas price of a chain without EIP-1559, automatic
// impersonation, and --json's one object per line.
import { expect } from 'chai';
import { DEV_GENESIS_TIMESTAMP } from '../../src/chain/dev-genesis.js';
import { parseCommand } from '../../src/command-line.js';
import { ConfigError } from '../../src/config.js';
import { killAll, runCli } from '../helpers/cli.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';
import { RpcCallError, rpc } from '../helpers/rpc.js';
import { until } from '../helpers/wait.js';

const config = (...argv: string[]) => parseCommand(['start', ...argv]).config;
const STRANGER = '0x1234567890123456789012345678901234567890';

describe("anvil's flags", function () {
  describe('on the command line', function () {
    it('takes the short forms -p -a -b -m -q', function () {
      const mnemonic = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
      expect(config('-p', '9545', '-a', '3', '-b', '2', '-m', mnemonic, '-q')).to.include({ port: 9545, accounts: 3, blockTime: 2, mnemonic, silent: true });
    });

    it("takes anvil's other names for the same flags", function () {
      expect(config('--block-base-fee-per-gas', '7')).to.include({ baseFee: 7n, genesisFlagsGiven: true });
      expect(config('--no-mine', '--auto-unlock', '--quiet', '--blockTime', '3')).to.include({ mining: false, autoImpersonate: true, silent: true, blockTime: 3 });
      expect(config('--init', 'g.json').genesis).to.equal('g.json');
    });

    it('takes a fractional block time and a balance with decimals', function () {
      expect(config('--block-time', '0.5').blockTime).to.equal(0.5);
      expect(config('--balance', '0.5').balance).to.equal(5n * 10n ** 17n);
      expect(config('--balance', '1.000000000000000001').balance).to.equal(10n ** 18n + 1n);
      expect(() => config('--balance', '1.0000000000000000001')).to.throw(ConfigError, '--balance must be an amount of ether with at most 18 decimals (10000, 0.5), got "1.0000000000000000001"');
      expect(() => config('--block-time', 'soon')).to.throw(ConfigError, '--block-time must be a number of seconds (2, 0.5), got "soon"');
    });

    it("takes anvil's fork flags: URL@BLOCK, a block counted back from the head, --retries, --timeout, --no-storage-caching", function () {
      expect(config('--fork-url', 'http://127.0.0.1:8545@1400000').fork).to.include({ url: 'http://127.0.0.1:8545', blockNumber: 1_400_000n });
      expect(config('--fork-url', 'https://user:pa55@rpc.example/v2/key').fork).to.include({ url: 'https://user:pa55@rpc.example/v2/key', blockNumber: undefined });
      expect(config('--fork-url', 'http://127.0.0.1:8545', '--fork-block-number=-5').fork?.blockNumber).to.equal(-5n);
      expect(config('--fork-url', 'http://127.0.0.1:8545', '--retries', '2', '--timeout', '900', '--no-storage-caching').fork).to.include({ retries: 2, timeoutMs: 900, cache: false });
      expect(() => config('--fork-url', 'http://127.0.0.1:8545@7', '--fork-block-number', '8')).to.throw(ConfigError, "--fork-url names block 7 after its '@', and --fork-block-number another: give one");
      expect(() => config('--offline', '--fork-block-number=-5')).to.throw(ConfigError, "counts back from the remote's head, which --offline does not ask");
    });

    it('refuses --base-fee on a fork that predates EIP-1559', function () {
      expect(() => config('--hardfork', 'berlin', '--base-fee', '7')).to.throw(ConfigError, '--base-fee needs EIP-1559, which --hardfork berlin predates');
    });
  });

  describe('on a node', function () {
    let node: TestNode | undefined;
    afterEach(async () => {
      await node?.destroy();
      node = undefined;
    });

    it('--timestamp: the genesis block carries it and blocks follow on from it as time passes', async function () {
      node = await startTestNode({ timestamp: 1_000n, genesisFlagsGiven: true });
      const genesis = await node.call('eth_getBlockByNumber', ['0x0', false]);
      expect(BigInt(genesis!.timestamp)).to.equal(1_000n);
      await node.call('evm_mine', []);
      const next = BigInt((await node.call('eth_getBlockByNumber', ['latest', false]))!.timestamp);
      expect(Number(next)).to.be.within(1_001, 1_010);
    });

    it('--timestamp left out: the fixed dev genesis timestamp, and the wall clock', async function () {
      node = await startTestNode();
      expect(BigInt((await node.call('eth_getBlockByNumber', ['0x0', false]))!.timestamp)).to.equal(DEV_GENESIS_TIMESTAMP);
      await node.call('evm_mine', []);
      expect(Number((await node.call('eth_getBlockByNumber', ['latest', false]))!.timestamp)).to.be.closeTo(Date.now() / 1000, 5);
    });

    it('--base-fee: the genesis base fee, which the next blocks adjust from', async function () {
      node = await startTestNode({ baseFee: 7n, genesisFlagsGiven: true });
      expect((await node.call('eth_getBlockByNumber', ['0x0', false]))!.baseFeePerGas).to.equal('0x7');
      expect(await node.call('eth_gasPrice', [])).to.equal(`0x${(7n + 10n ** 9n).toString(16)}`);
    });

    it('--gas-price on a chain without EIP-1559: eth_gasPrice answers it and the pool refuses less', async function () {
      node = await startTestNode({ hardfork: 'berlin', gasPrice: 5n * 10n ** 9n, genesisFlagsGiven: true });
      expect(await node.call('eth_gasPrice', [])).to.equal(`0x${(5n * 10n ** 9n).toString(16)}`);
      const cheap = rpc(node.url, 'eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1', gasPrice: `0x${(10n ** 9n).toString(16)}` }]);
      await cheap.then(
        () => expect.fail('a transaction below --gas-price was accepted'),
        (error: RpcCallError) => expect(error.message).to.match(/underpriced/),
      );
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
      expect((await node.call('eth_getTransactionReceipt', [hash]))!.status).to.equal('0x1');
    });

    it('--auto-impersonate: any address sends without its key', async function () {
      node = await startTestNode({ autoImpersonate: true });
      await node.call('anvil_setBalance', [STRANGER, '0xde0b6b3a7640000']);
      const hash = await node.call('eth_sendTransaction', [{ from: STRANGER, to: DEV_ADDRESSES[1], value: '0x1' }]);
      expect((await node.call('eth_getTransactionReceipt', [hash]))!.from).to.equal(STRANGER);
    });

    it('--block-time 0.5: a block every half second', async function () {
      const started = Date.now();
      node = await startTestNode({ blockTime: 0.5, mining: true });
      await until(async () => Number(await node!.call('eth_blockNumber', [])) >= 2, 'two blocks', 5_000);
      expect(Date.now() - started).to.be.within(900, 3_000);
    });
  });

  describe('--json', function () {
    afterEach(() => killAll());

    it('prints the start, each request and each mined transaction as one JSON object per line', async function () {
      this.timeout(60_000);
      const cli = runCli(['start', '--port', '0', '--json']);
      const [first] = await cli.waitFor(/^\{[^\n]*"event":"listening"[^\n]*\}\n/);
      const start = JSON.parse(first!) as { url: string; chainId: number; accounts: Array<{ address: string }> };
      expect(start).to.include({ chainId: 31337 });
      expect(start.accounts[0]!.address).to.equal(DEV_ADDRESSES[0]);
      const hash = await rpc<string>(start.url, 'eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
      await rpc(start.url, 'eth_getBlockByNumber', ['bogus', false]).catch(() => undefined);
      await cli.waitFor(/"method":"eth_getBlockByNumber"[^\n]*\n/);
      const lines = cli.stdout().trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.find((l) => l.event === 'transaction')).to.deep.include({ txHash: hash, block: 1, status: 1, gasUsed: 21000 });
      const sent = lines.find((l) => l.method === 'eth_sendTransaction')!;
      expect(sent).to.include({ event: 'request', txHash: hash });
      expect(sent.durationMs).to.be.a('number');
      expect(lines.find((l) => l.method === 'eth_getBlockByNumber')!.error).to.include({ code: -32602 });
      cli.child.kill('SIGTERM');
      expect(await cli.exited).to.equal(0);
      for (const line of cli.stderr().trimEnd().split('\n').filter((l) => l !== '')) expect(JSON.parse(line)).to.include.keys('time', 'level', 'message');
    });
  });
});
