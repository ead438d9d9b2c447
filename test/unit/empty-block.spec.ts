// anvil_mine builds a long run's empty blocks without the VM (src/producer/empty-block.ts) when it
// can tell what the VM would do; these specs hold its blocks against the VM's, byte for byte,
// where that shortcut has something to get wrong: the system contracts' rings lapping, a beacon
// root slot it stops clearing, request queues at work, system contracts with other code.
import { bytesToHex } from '@ethereumjs/util';
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Block } from '../../generated/types.js';
import { devGenesis } from '../../src/chain/dev-genesis.js';
import { assembleBlock } from '../../src/producer/block-assembly.js';
import { createChainVM } from '../../src/state/vm.js';
import { blockAt, hex } from '../helpers/dev-calls.js';
import { startTestNode, testLogger, type TestNode } from '../helpers/node.js';
import { devAddress, devKey, signTx } from '../helpers/transactions.js';

const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';
const WITHDRAWAL_REQUESTS = '0x00000961ef480eb55e80d19ad83579a64c007002';
/** EIP-4788's ring length, a prime: blocks this many seconds apart write the same slots of it. */
const BEACON_RING = 8191n;

/**
 * Runs `steps` on a node that mines with anvil_mine, and again on one that mines each of those
 * blocks alone with evm_mine at the same time; answers both chains' blocks after `steps`.
 */
async function mineBothWays(
  steps: (node: TestNode, mine: (count: number, interval?: number) => Promise<void>) => Promise<void>,
  config: Parameters<typeof startTestNode>[0] = {},
): Promise<{ run: Block[]; oneByOne: Block[] }> {
  const fast = await startTestNode({ ...config, mining: false });
  const slow = await startTestNode({ ...config, mining: false });
  try {
    const run: Block[] = [];
    await steps(fast, async (count, interval) => {
      const from = run.length + 1;
      await fast.call('anvil_mine', interval === undefined ? [hex(count)] : [hex(count), hex(interval)]);
      for (let n = from; n < from + count; n++) run.push(await blockAt(fast, hex(n)));
    });
    let mined = 0;
    await steps(slow, async (count) => {
      for (let i = 0; i < count; i++) await slow.call('evm_mine', [run[mined++].timestamp]);
    });
    const oneByOne = await Promise.all(run.map((block) => blockAt(slow, block.number)));
    return { run, oneByOne };
  } finally {
    await fast.destroy();
    await slow.destroy();
  }
}

function expectSameBlocks({ run, oneByOne }: { run: Block[]; oneByOne: Block[] }): void {
  expect(run.length).to.be.greaterThan(0);
  for (let i = 0; i < run.length; i++) expect(run[i], `block ${BigInt(run[i].number)}`).to.deep.equal(oneByOne[i]);
}

describe('anvil_mine’s empty blocks, built without the VM', () => {
  for (const hardfork of ['paris', 'shanghai', 'cancun', 'prague']) {
    it(`are evm_mine’s on ${hardfork} too`, async () => {
      expectSameBlocks(await mineBothWays((_, mine) => mine(20), { hardfork }));
    });
  }

  it('are evm_mine’s across forks that activate during the run (Cancun → Prague → Osaka)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'empty-block-'));
    try {
      // Both forks a little after now: the run's first blocks are Cancun's, its last Osaka's.
      const now = Math.floor(Date.now() / 1000);
      const genesis = devGenesis({ chainId: 31337n, hardfork: 'cancun', accounts: [devAddress(1)], balance: 10n ** 21n, gasLimit: 30_000_000n });
      const config = genesis.config as typeof genesis.config & { osakaTime: number };
      Object.assign(config, { pragueTime: now + 30, osakaTime: now + 60 });
      config.blobSchedule = { ...config.blobSchedule, prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 }, osaka: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 } };
      await writeFile(join(dir, 'genesis.json'), JSON.stringify(genesis));
      const blocks = await mineBothWays((_, mine) => mine(100), { genesis: join(dir, 'genesis.json') });
      expect(blocks.run[0].requestsHash, 'the first block is Cancun’s').to.equal(undefined);
      expect(blocks.run.at(-1)!.requestsHash, 'the last block is Prague’s or later').to.be.a('string');
      expectSameBlocks(blocks);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('are evm_mine’s when every block writes the same slots of the beacon-roots ring (a lap a block)', async () => {
    expectSameBlocks(await mineBothWays((_, mine) => mine(40, Number(BEACON_RING))));
  });

  it('clear a beacon root slot written since they last found it empty, as evm_mine’s do', async () => {
    expectSameBlocks(
      await mineBothWays(async (node, mine) => {
        await mine(3, Number(BEACON_RING));
        // The slot the last block's zero root went to; the next call's first block comes a second
        // after it and the second a ring's length after that, so it writes that slot's turn again.
        const { timestamp } = await blockAt(node, 'latest');
        const rootSlot = (BigInt(timestamp) % BEACON_RING) + BEACON_RING;
        await node.call('anvil_setStorageAt', [BEACON_ROOTS, hex(rootSlot), `0x${'11'.repeat(32)}`]);
        await mine(3, Number(BEACON_RING) - 1);
      }),
    );
  });

  it('are evm_mine’s while EIP-7002’s queue drains and its fee counter falls back to zero', async () => {
    // Five withdrawal requests in the first block: the block's system call dequeues them and leaves
    // the excess at 3, which the next two blocks bring down to 1 and then 0.
    const requests = await Promise.all(
      [0, 1, 2, 3, 4].map((nonce) =>
        signTx({ key: devKey(2), nonce, to: WITHDRAWAL_REQUESTS, value: 1n, gas: 300_000n, data: `0x${'ab'.repeat(48)}${'00'.repeat(7)}0${nonce + 1}` }),
      ),
    );
    const blocks = await mineBothWays(async (node, mine) => {
      for (const raw of requests) await node.call('eth_sendRawTransaction', [raw]);
      await mine(6);
    });
    expect(blocks.run[0].transactions).to.have.length(5);
    expectSameBlocks(blocks);
  });

  it('are evm_mine’s when a request queue’s address holds other code, which runs each block', async () => {
    // Slot 5 (past the queue's counters) counts the calls: one a block.
    expectSameBlocks(
      await mineBothWays(async (node, mine) => {
        await node.call('anvil_setCode', [WITHDRAWAL_REQUESTS, '0x600554600101600555']);
        await mine(4);
      }),
    );
  });

  it('are the blocks the VM builds on the same parents across both rings’ laps, 8,300 blocks on', async function () {
    this.timeout(120_000);
    const node = await startTestNode({ mining: false });
    try {
      await node.call('anvil_mine', [hex(8_300)]);
      const { chain } = node.node.services;
      const state = await chain.state.ephemeral(chain.genesis.header.stateRoot);
      const vm = await createChainVM(chain, chain.commons.base.copy(), state);
      // The first blocks, both laps' turns (block 8,191 writes history slot 8,190, 8,192 slot 0,
      // and with one second a block the beacon ring turns there too), and blocks every so often.
      const numbers = [1, 2, 3, 8189, 8190, 8191, 8192, 8193, 8194, 8299, 8300];
      for (let n = 5; n < 8300; n += 397) numbers.push(n);
      for (const n of numbers) {
        const block = (await chain.blockByNumber(BigInt(n)))!;
        const parent = (await chain.blockByNumber(BigInt(n - 1)))!;
        await state.setStateRoot(parent.header.stateRoot);
        const { coinbase, gasLimit, baseFeePerGas, timestamp } = block.header;
        const rebuilt = await assembleBlock(vm, parent, timestamp, [], { coinbase, gasLimit, baseFee: baseFeePerGas, log: testLogger });
        expect(bytesToHex(rebuilt.block.serialize()), `block ${n}`).to.equal(bytesToHex(block.serialize()));
      }
    } finally {
      await node.destroy();
    }
  });
});
