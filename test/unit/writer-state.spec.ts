// The node's writer state takes shortcuts around MerkleStateManager (storage writes wait in its
// cache for the block's flush); the blocks it builds must be the blocks a stock state manager
// computes: each one runs again on a stock MerkleStateManager, with every root checked.
import type { Block } from '@ethereumjs/block';
import { createMPT } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex } from '@ethereumjs/util';
import { runBlock } from '@ethereumjs/vm';
import { expect } from 'chai';
import { encodeFunctionData, type Abi, type Hex } from 'viem';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAddressFromString } from '@ethereumjs/util';
import { devGenesis } from '../../src/chain/dev-genesis.js';
import { writeGenesisState } from '../../src/chain/genesis.js';
import { DEFAULTS } from '../../src/config.js';
import { createChainVM } from '../../src/state/vm.js';
import { contracts, deployContract } from '../helpers/contracts.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { devAddress, devKey, signTx } from '../helpers/transactions.js';

/** An account in the genesis with nothing in it. */
const EMPTY = '0x00000000000000000000000000000000000e3e01';

const abi = () => contracts().StateOps.abi as unknown as Abi;
const input = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: abi(), functionName, args });

describe('writer state', () => {
  let node: TestNode;
  let dir: string;
  afterEach(async () => {
    await node.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('builds the blocks a stock MerkleStateManager builds: state, receipts and gas, block by block', async () => {
    // The dev chain, plus an empty account in its genesis: touching it deletes it (EIP-161).
    dir = await mkdtemp(join(tmpdir(), 'writer-state-'));
    const genesis = devGenesis({ chainId: 31337n, hardfork: DEFAULTS.hardfork, accounts: [devAddress(3), devAddress(4)], balance: 10n ** 21n, gasLimit: 30_000_000n });
    genesis.alloc[EMPTY] = { balance: '0x0' };
    await writeFile(join(dir, 'genesis.json'), JSON.stringify(genesis));
    node = await startTestNode({ genesis: join(dir, 'genesis.json') });
    const ops = await deployContract(node, 'StateOps', [], devKey(4));
    let nonce = 0;
    const send = async (data: Hex, value = 0n) =>
      node.call('eth_sendRawTransaction', [await signTx({ key: devKey(3), nonce: nonce++, to: ops, data, value, gas: 600_000n })]);
    const transfer = async (to: Hex, value: bigint) =>
      node.call('eth_sendRawTransaction', [await signTx({ key: devKey(3), nonce: nonce++, to, value, gas: 21_000n })]);
    // Blocks of one transaction each: storage set, reset and cleared, a reverted inner frame,
    // transient storage, a same-transaction self-destruct, a failing transaction, value to fresh accounts.
    for (const data of [input('write', [1n, 5n]), input('churn', [7n]), input('write', [1n, 0n]), input('tryInner', [3n]), input('transient', [4n])]) await send(data);
    await send(input('spawnAndDestroy', [8n]), 9n);
    await send(input('inner', [5n]));
    await send(input('pay', ['0x00000000000000000000000000000000000fee01']), 7n);
    expect(await node.call('eth_getProof', [EMPTY, [], 'latest'])).to.have.property('nonce', '0x0');
    await send(input('pay', [EMPTY]), 0n);
    await transfer('0x00000000000000000000000000000000000fee02', 3n);
    // Then blocks of many: the same slots written by several transactions, creations (one of them
    // colliding with the first), transfers, a failure among them.
    await node.call('evm_setAutomine', [false]);
    for (let k = 0n; k < 6n; k++) await send(input('write', [k % 3n, k * k]));
    await send(input('spawn', [2n]), 1n);
    await send(input('spawnAt', [`0x${'22'.repeat(32)}`, 3n]));
    await send(input('spawnAt', [`0x${'22'.repeat(32)}`, 4n]));
    await send(input('churn', [1n]));
    await send(input('inner', [6n]));
    for (let k = 0; k < 4; k++) await transfer(`0x00000000000000000000000000000000000fee1${k}`, BigInt(k + 1));
    await node.call('evm_mine', []);
    await send(input('write', [0n, 0n]));
    await send(input('spawnAndDestroy', [9n]), 2n);
    await node.call('evm_mine', []);

    const { chain } = node.node.services;
    expect(await (await chain.state.at(chain.head().header.stateRoot)).getAccount(createAddressFromString(EMPTY)), 'the touched empty account is gone').to.equal(undefined);
    const common = chain.commons.base.copy();
    const stock = new MerkleStateManager({ trie: await createMPT({ useKeyHashing: true, common }), common, caches: new Caches() });
    expect(bytesToHex(await writeGenesisState(chain.spec, stock))).to.equal(bytesToHex(chain.genesis.header.stateRoot));
    const vm = await createChainVM(chain, common, stock);
    const blocks: Block[] = [];
    for (let n = 1n; n <= chain.head().header.number; n++) blocks.push((await chain.blockByNumber(n))!);
    expect(blocks.at(-2)!.transactions.length).to.equal(15);
    const statuses = await Promise.all(blocks.flatMap((b) => b.transactions.map(async (tx) => (await node.call('eth_getTransactionReceipt', [bytesToHex(tx.hash())]))!.status)));
    expect(statuses, 'some transactions fail, as the script means them to').to.include('0x0');
    for (const block of blocks) {
      // runBlock refuses a block whose state root, receipts root, bloom or gas used it computes otherwise.
      const result = await runBlock(vm, { block, skipHeaderValidation: true, setHardfork: true });
      expect(bytesToHex(result.stateRoot)).to.equal(bytesToHex(block.header.stateRoot));
    }
  });
});
