// What `start` prints while it serves (stdout, as anvil): each request method, bursts folded; each
// mined transaction with its hash, gas, status and revert reason; console.log from transactions and
// calls. Read from a real child process.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem';
import { killAll, listening, runCli, type Cli } from '../helpers/cli.js';
import { contracts } from '../helpers/contracts.js';
import { DEV_ADDRESSES } from '../helpers/node.js';
import { rpc, rpcRaw } from '../helpers/rpc.js';
import { until } from '../helpers/wait.js';

const FROM = DEV_ADDRESSES[0];
/** The dev account 0 as console.log prints an address: checksummed. */
const FROM_CHECKSUMMED = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

interface Receipt {
  transactionHash: string;
  contractAddress: string | null;
  gasUsed: string;
  blockNumber: string;
  blockHash: string;
  status: string;
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const greeter = () => contracts().Greeter;
const abi = () => greeter().abi as unknown as Abi;

describe('the terminal: what start prints while it serves', () => {
  let cwd: string;
  let cli: Cli;
  let url: string;

  beforeEach(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'evm-node-terminal-'));
  });
  afterEach(async () => {
    killAll();
    await rm(cwd, { recursive: true, force: true });
  });

  const start = async (flags: string[] = []) => {
    cli = runCli(['start', '--port', '0', ...flags], { cwd });
    url = await listening(cli);
  };
  const printed = (text: string) => until(() => cli.stdout().includes(text), `${JSON.stringify(text)} on stdout; stdout:\n${cli.stdout()}`);
  const send = async (request: Record<string, string>): Promise<Receipt> => {
    const hash = await rpc<string>(url, 'eth_sendTransaction', [{ from: FROM, ...request }]);
    return (await rpc<Receipt>(url, 'eth_getTransactionReceipt', [hash]))!;
  };
  const deploy = (greeting: string) => send({ data: encodeDeployData({ abi: abi(), bytecode: greeter().bytecode, args: [greeting] }) });

  it('prints a deployment: its hash, the contract created, gas used, status, block and console.log (a string, a uint and an address)', async () => {
    await start();
    const receipt = await deploy('hello');
    await printed(`Block Hash: ${receipt.blockHash}`);
    const out = cli.stdout();
    const report = out.slice(out.indexOf(`Transaction: ${receipt.transactionHash}`));
    expect(report).to.match(
      new RegExp(
        [
          `Transaction: ${receipt.transactionHash}`,
          `Contract created: ${receipt.contractAddress}`,
          `Gas used: ${BigInt(receipt.gasUsed)}`,
          'Status: 1 \\(success\\)',
          'console.log:',
          `deploying a Greeter with 5 ${FROM_CHECKSUMMED}`,
          '',
          'Block Number: 1',
          `Block Hash: ${receipt.blockHash}`,
          'Block Time: \\w{3}, \\d{2} \\w{3} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT',
        ].join('\\n\\s*'),
      ),
    );
    // The request that sent it comes first.
    expect(out.indexOf('eth_sendTransaction')).to.be.above(out.indexOf('(19) 0x')).and.below(out.indexOf(`Transaction: ${receipt.transactionHash}`));
  });

  it('prints a reverted transaction with its status and decoded reason, and the console.log it made before reverting', async () => {
    await start();
    const { contractAddress } = await deploy('hello');
    const receipt = await send({ to: contractAddress!, gas: '0x30000', data: encodeFunctionData({ abi: abi(), functionName: 'setGreeting', args: [''] }) });
    expect(receipt.status).to.equal('0x0');
    await printed(`Block Hash: ${receipt.blockHash}`);
    const out = cli.stdout();
    expect(out.slice(out.indexOf(`Transaction: ${receipt.transactionHash}`))).to.match(
      new RegExp(
        [
          `Transaction: ${receipt.transactionHash}`,
          `Gas used: ${BigInt(receipt.gasUsed)}`,
          'Status: 0 \\(failed\\)',
          'Error: reverted with: Greeter: empty greeting',
          'console.log:',
          `changing the greeting to 0 ${FROM_CHECKSUMMED}`,
          // logged through the selector older console.sol versions computed from log(uint)
          '7',
          '',
          'Block Number: 2',
        ].join('\\n\\s*'),
      ),
    );
  });

  it("prints an eth_call's console.log once, and an eth_estimateGas's once despite its many runs", async () => {
    await start();
    const { contractAddress } = await deploy('hello');
    await rpc(url, 'eth_call', [{ from: FROM, to: contractAddress, data: encodeFunctionData({ abi: abi(), functionName: 'greet' }) }, 'latest']);
    await cli.waitFor(new RegExp(`eth_call\\n\\s*console.log \\(eth_call\\):\\n\\s*hello\\n\\s*1\\n\\s*${FROM_CHECKSUMMED}\\n`), 10_000);

    await rpc(url, 'eth_estimateGas', [{ from: FROM, to: contractAddress, data: encodeFunctionData({ abi: abi(), functionName: 'setGreeting', args: ['hej'] }) }]);
    await printed('console.log (eth_estimateGas):');
    await printed(`changing the greeting to 3 ${FROM_CHECKSUMMED}\n`);
    expect(cli.stdout().split(`changing the greeting to 3 ${FROM_CHECKSUMMED}`)).to.have.length(2);
  });

  it('prints the console.log of the same eth_call each time it is asked on one block', async () => {
    await start();
    const { contractAddress } = await deploy('hello');
    const greet = () => rpc(url, 'eth_call', [{ from: FROM, to: contractAddress, data: encodeFunctionData({ abi: abi(), functionName: 'greet' }) }, 'latest']);
    await greet();
    await printed('console.log (eth_call):');
    await greet();
    await until(() => cli.stdout().split('console.log (eth_call):').length === 3, `two calls' console.log on stdout; stdout:\n${cli.stdout()}`);
  });

  it("prints the console.log of an eth_call with state overrides, which runs on a VM of its own", async () => {
    await start();
    const { contractAddress } = await deploy('hello');
    const overrides = { [FROM]: { balance: '0xde0b6b3a7640000' } };
    await rpc(url, 'eth_call', [{ from: FROM, to: contractAddress, data: encodeFunctionData({ abi: abi(), functionName: 'greet' }) }, 'latest', overrides]);
    await cli.waitFor(new RegExp(`eth_call\\n\\s*console.log \\(eth_call\\):\\n\\s*hello\\n`), 10_000);
  });

  it('prints each of concurrent calls’ console.log under its own call', async () => {
    await start();
    const [one, two] = [await deploy('one'), await deploy('two')];
    const greet = (to: string | null) => rpc(url, 'eth_call', [{ from: FROM, to, data: encodeFunctionData({ abi: abi(), functionName: 'greet' }) }, 'latest']);
    await Promise.all([greet(one.contractAddress), greet(two.contractAddress), greet(one.contractAddress)]);
    await until(() => cli.stdout().split('console.log (eth_call):').length === 4, `three calls' console.log on stdout; stdout:\n${cli.stdout()}`);
    const blocks = cli.stdout().split('console.log (eth_call):').slice(1).map((block) => block.trim().split('\n')[0].trim());
    expect(blocks.sort()).to.deep.equal(['one', 'one', 'two']);
  });

  it('captures calls’ console.log without AsyncLocalStorage, whose promise hooks Node 20 would keep on for every later request', async () => {
    // Marks any use of AsyncLocalStorage in the child on stderr.
    const marker = `import { AsyncLocalStorage } from 'node:async_hooks';
      for (const name of ['run', 'enterWith']) {
        const original = AsyncLocalStorage.prototype[name];
        AsyncLocalStorage.prototype[name] = function (...args) { process.stderr.write('AsyncLocalStorage used\\n'); return original.apply(this, args); };
      }`;
    cli = runCli(['start', '--port', '0'], { cwd, node: ['--import', `data:text/javascript,${encodeURIComponent(marker)}`] });
    url = await listening(cli);
    const { contractAddress } = await deploy('hello');
    await rpc(url, 'eth_call', [{ from: FROM, to: contractAddress, data: encodeFunctionData({ abi: abi(), functionName: 'greet' }) }, 'latest']);
    await printed('console.log (eth_call):');
    expect(cli.stderr()).not.to.include('AsyncLocalStorage used');
  });

  it('shows control characters a contract logs as escapes, so a string cannot drive the terminal', async () => {
    await start();
    const { contractAddress } = await deploy('\u001b[2Jcleared');
    await rpc(url, 'eth_call', [{ from: FROM, to: contractAddress, data: encodeFunctionData({ abi: abi(), functionName: 'greet' }) }, 'latest']);
    await printed('\\u001b[2Jcleared');
    expect(cli.stdout()).not.to.include('\u001b');
  });

  it('folds a burst of one method into one line with a count', async () => {
    await start();
    const batch = Array.from({ length: 50 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_blockNumber', params: [] }));
    await rpcRaw(url, batch);
    await printed('eth_blockNumber ×50\n');
    expect(cli.stdout().match(/eth_blockNumber/g)).to.have.length(1);
  });

  it('keeps the chain in memory by default: nothing is written to the working directory', async () => {
    await start();
    await deploy('hello');
    expect(cli.stdout()).to.match(/Chain data\s+in memory: gone when the node stops \(--data-dir DIR keeps it\)/);
    expect(await readdir(cwd)).to.deep.equal([]);
  });

  it('names the playground, the WebSocket URL, the mnemonic, the hardfork, the base fee and the gas limit in its banner', async () => {
    await start();
    const out = cli.stdout();
    expect(out).to.include(`Playground   ${url}/`);
    expect(out).to.include(`WebSocket    ${url.replace('http:', 'ws:')}`);
    expect(out).to.include('Mnemonic:        test test test test test test test test test test test junk');
    expect(out).to.match(/Chain\s+id 31337, hardfork osaka, gas limit 30000000, base fee 0\.875 gwei/);
  });

  it('names the Host headers it accepts when bound beyond loopback, and only then', async () => {
    await start();
    expect(cli.stdout()).not.to.include('Host headers');
    killAll();
    await start(['--host', '0.0.0.0', '--allowed-hosts', 'devbox.lan']);
    expect(cli.stdout()).to.match(
      new RegExp(`Host headers localhost, 127\\.0\\.0\\.1, \\[::1\\], [^\\n]*${hostname().toLowerCase()}, devbox\\.lan \\(reachable beyond this machine; --allowed-hosts adds names\\)\\n`),
    );
  });

  it('warns in one line that the dev accounts sign for anyone who reaches the port when bound beyond loopback, and only then', async () => {
    await start();
    expect(cli.stdout()).not.to.include('WARNING');
    killAll();
    await start(['--host', '0.0.0.0']);
    const port = new URL(url).port;
    expect(cli.stdout()).to.include(`\nWARNING: the 20 dev accounts are unlocked: anyone who can reach port ${port} on 0.0.0.0 can send transactions and sign with them.\n`);
  });

  it('stops and resumes printing on anvil_setLoggingEnabled, as anvil does', async () => {
    await start();
    await rpc(url, 'anvil_setLoggingEnabled', [false]);
    const unseen = await send({ to: DEV_ADDRESSES[1], value: '0x1' });
    await rpc(url, 'hardhat_setLoggingEnabled', [true]);
    const seen = await send({ to: DEV_ADDRESSES[1], value: '0x2' });
    cli.child.kill('SIGTERM');
    expect(await cli.exited).to.equal(0);
    expect(cli.stdout()).to.include(`Transaction: ${seen.transactionHash}`);
    expect(cli.stdout()).not.to.include(unseen.transactionHash);
  });

  it('prints no request or transaction lines below --log-level info', async () => {
    await start(['--log-level', 'warn']);
    await deploy('hello');
    // A clean stop prints whatever the terminal still held: all of its output is in by the exit.
    cli.child.kill('SIGTERM');
    expect(await cli.exited).to.equal(0);
    expect(cli.stdout()).to.include('(19) 0x');
    expect(cli.stdout()).not.to.include('eth_sendTransaction');
    expect(cli.stdout()).not.to.include('Transaction:');
  });

  it('prints nothing on stdout with --silent', async () => {
    const port = await freePort();
    cli = runCli(['start', '--port', String(port), '--silent'], { cwd });
    url = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${url}/health`).catch(() => undefined))?.ok === true, 'the silent node to serve');
    await deploy('hello');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).to.equal(0);
    expect(cli.stdout()).to.equal('');
  });
});
