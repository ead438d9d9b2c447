// What a node loads is what its requests need: one that only reads never loads the EVM (with its
// precompiles' curves), the VM, the message signer or the WebSocket server. Read from a real child
// process, whose module loads a hook names on stderr (helpers/module-log.ts).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Wallet } from 'ethers';
import { killAll, listening, runCli, type Cli } from '../helpers/cli.js';
import { MODULE_LOG } from '../helpers/module-log.js';
import { DEV_ADDRESSES, DEV_KEYS } from '../helpers/node.js';
import { rpc } from '../helpers/rpc.js';
import { WsRpc } from '../helpers/ws-rpc.js';
import { until } from '../helpers/wait.js';

const EXECUTION_PACKAGES = ['@ethereumjs/vm', '@ethereumjs/evm', 'micro-eth-signer'];

const loaded = (cli: Cli): string[] => [...cli.stderr().matchAll(/^loaded package (\S+)$/gm)].map((match) => match[1]!);

/** Waits for `name` to be loaded; answers the packages loaded before it. */
async function loadedBefore(cli: Cli, name: string): Promise<string[]> {
  await until(() => loaded(cli).includes(name), `the node to load ${name}`);
  const all = loaded(cli);
  return all.slice(0, all.indexOf(name));
}

describe('lazy loading (a child node)', function () {
  this.timeout(60_000);
  let cli: Cli;
  let url: string;

  beforeEach(async () => {
    cli = runCli(['start', '--port', '0'], { node: ['--import', MODULE_LOG] });
    url = await listening(cli);
  });
  afterEach(() => killAll());

  it('serves reads of blocks, receipts, logs, state and proofs without loading the EVM, the VM or the signer', async () => {
    await rpc(url, 'eth_getBlockByNumber', ['latest', true]);
    await rpc(url, 'eth_getTransactionReceipt', [`0x${'11'.repeat(32)}`]);
    await rpc(url, 'eth_getLogs', [{ fromBlock: '0x0', address: DEV_ADDRESSES[1] }]);
    await rpc(url, 'eth_getBalance', [DEV_ADDRESSES[0], 'latest']);
    await rpc(url, 'eth_getProof', [DEV_ADDRESSES[0], ['0x0'], 'latest']);
    // The first WebSocket loads `ws`: what was loaded before it is what the reads loaded.
    (await WsRpc.connect(url)).socket.close();
    const beforeWs = await loadedBefore(cli, 'ws');
    expect(beforeWs.filter((name) => EXECUTION_PACKAGES.includes(name))).to.deep.equal([]);
  });

  it('hashes without WebAssembly until blocks are being made, then loads the WebAssembly keccak', async () => {
    await rpc(url, 'eth_getProof', [DEV_ADDRESSES[0], ['0x0'], 'latest']);
    await rpc(url, 'eth_getBalance', [DEV_ADDRESSES[2], 'latest']);
    expect(loaded(cli)).not.to.include('hash-wasm');
    await rpc(url, 'anvil_mine', ['0x100']);
    await until(() => loaded(cli).includes('hash-wasm'), 'the node to load the WebAssembly keccak');
    expect(await rpc(url, 'eth_blockNumber', [])).to.equal('0x100');
  });

  it('derives the dev accounts without libsecp256k1, and loads it with the first transaction it checks', async () => {
    // A native binary shows in the process's memory map once loaded; the ESM hooks do not see require().
    const mapsLibsecp = () => /secp256k1[^\n]*\.node$/m.test(readFileSync(`/proc/${cli.child.pid}/maps`, 'utf8'));
    expect(await rpc(url, 'eth_accounts', [])).to.include(DEV_ADDRESSES[0]);
    expect(mapsLibsecp()).to.equal(false);
    const wallet = new Wallet(DEV_KEYS[1]!);
    const raw = await wallet.signTransaction({ to: DEV_ADDRESSES[2], value: 1n, nonce: 0, gasLimit: 21_000n, gasPrice: 10n ** 10n, chainId: 31337n });
    const hash = await rpc(url, 'eth_sendRawTransaction', [raw]);
    expect(await rpc<{ from: string }>(url, 'eth_getTransactionByHash', [hash])).to.include({ from: DEV_ADDRESSES[1] });
    expect(mapsLibsecp()).to.equal(true);
  });

  it('loads the EVM and the VM with the first call that executes', async () => {
    expect(loaded(cli)).not.to.include('@ethereumjs/vm');
    await rpc(url, 'eth_call', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }, 'latest']);
    await until(() => loaded(cli).includes('@ethereumjs/vm') && loaded(cli).includes('@ethereumjs/evm'), 'the node to load the VM and the EVM');
  });
});
