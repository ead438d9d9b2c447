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
import { writeGenesisState } from '../../src/chain/genesis.js';
import { createChainVM } from '../../src/state/vm.js';
import { contracts, deployContract } from '../helpers/contracts.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { devKey, signTx } from '../helpers/transactions.js';

const abi = () => contracts().StateOps.abi as unknown as Abi;
const input = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: abi(), functionName, args });

describe('writer state', () => {
  let node: TestNode;
  afterEach(() => node.destroy());

  it('builds the blocks a stock MerkleStateManager builds: state, receipts and gas, block by block', async () => {
    node = await startTestNode();
    const ops = await deployContract(node, 'StateOps', [], devKey(4));
    let nonce = 0;
    const send = async (data: Hex, value = 0n) =>
      node.call('eth_sendRawTransaction', [await signTx({ key: devKey(3), nonce: nonce++, to: ops, data, value, gas: 600_000n })]);
    // Blocks of one transaction each, then one block of many.
    for (const data of [input('write', [1n, 5n]), input('churn', [7n]), input('write', [1n, 0n]), input('tryInner', [3n]), input('transient', [4n])]) await send(data);
    await send(input('spawnAndDestroy', [8n]), 9n);
    await node.call('evm_setAutomine', [false]);
    for (let k = 0n; k < 6n; k++) await send(input('write', [k, k * k]));
    await send(input('spawn', [2n]), 1n);
    await send(input('churn', [1n]));
    await node.call('evm_mine', []);

    const { chain } = node.node.services;
    const common = chain.commons.base.copy();
    const stock = new MerkleStateManager({ trie: await createMPT({ useKeyHashing: true, common }), common, caches: new Caches() });
    expect(bytesToHex(await writeGenesisState(chain.spec, stock))).to.equal(bytesToHex(chain.genesis.header.stateRoot));
    const vm = await createChainVM(chain, common, stock);
    const blocks: Block[] = [];
    for (let n = 1n; n <= chain.head().header.number; n++) blocks.push((await chain.blockByNumber(n))!);
    expect(blocks.at(-1)!.transactions.length).to.equal(8);
    for (const block of blocks) {
      // runBlock refuses a block whose state root, receipts root, bloom or gas used it computes otherwise.
      const result = await runBlock(vm, { block, skipHeaderValidation: true, setHardfork: true });
      expect(bytesToHex(result.stateRoot)).to.equal(bytesToHex(block.header.stateRoot));
    }
  });
});
