// Calls on a worker thread must answer what the main thread answers: the same Executor, on state
// its snapshots read from the main thread's, following the chain block by block.
import type { Block } from '@ethereumjs/block';
import { expect } from 'chai';
import { encodeFunctionData, type Abi, type Hex } from 'viem';
import type { TransactionCall } from '../../generated/types.js';
import { CallWorkers } from '../../src/calls/workers.js';
import { CallFailure, Executor } from '../../src/state/execution.js';
import { contracts, deployContract } from '../helpers/contracts.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { devAddress, devKey, signTx } from '../helpers/transactions.js';
import { until } from '../helpers/wait.js';

const abi = () => contracts().StateOps.abi as unknown as Abi;
const input = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: abi(), functionName, args });
/** Creation code that returns BLOCKHASH(n) of its first argument's block: PUSH1 n BLOCKHASH PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const blockhashOf = (n: number) => `0x60${n.toString(16).padStart(2, '0')}4060005260206000f3` as Hex;

describe('call workers', () => {
  let node: TestNode;
  let workers: CallWorkers;
  afterEach(async () => {
    await workers.close();
    await node.destroy();
  });

  /** What a call answers: its return data, or how it failed. */
  async function outcome(run: () => Promise<Uint8Array | bigint>): Promise<unknown> {
    try {
      const value = await run();
      return typeof value === 'bigint' ? { estimate: value } : { returned: Buffer.from(value).toString('hex') };
    } catch (error) {
      if (error instanceof CallFailure) return { fault: error.fault.kind, detail: 'data' in error.fault ? Buffer.from(error.fault.data).toString('hex') : error.fault.message };
      throw error;
    }
  }

  async function setUp(): Promise<{ local: Executor; ops: Hex }> {
    node = await startTestNode({ callWorkers: 0 });
    const { chain } = node.node.services;
    workers = new CallWorkers(chain, 1, { error: (m, ...rest) => console.error(m, ...rest) });
    const ops = await deployContract(node, 'StateOps', [], devKey(7));
    const local = new Executor({ commonAt: (header) => chain.commons.at(header), state: chain.state, blockByNumber: (n) => chain.blockByNumber(n) });
    return { local, ops };
  }

  /** Runs `request` on the worker (once it has started) and on the main thread; both answers. */
  async function both(local: Executor, request: TransactionCall, block: Block, kind: 'call' | 'estimate' = 'call') {
    let remote: Promise<Uint8Array | bigint> | undefined;
    await until(() => (remote = kind === 'call' ? workers.call(request, block) : workers.estimateGas(request, block)) !== undefined, 'a worker ready for calls');
    return {
      worker: await outcome(() => remote!),
      main: await outcome(() => (kind === 'call' ? local.call(request, block) : local.estimateGas(request, block))),
    };
  }

  it('answers calls and estimates as the main thread does: return data, reverts, failures, BLOCKHASH', async () => {
    const { local, ops } = await setUp();
    const { chain } = node.node.services;
    const from = devAddress(7);
    const requests: TransactionCall[] = [
      { from, to: ops, input: input('inspect', [ops]) },
      { from, to: ops, input: input('churn', [3n]) },
      { from, to: ops, input: input('spawn', [1n]), value: '0x5' },
      { from, to: ops, input: input('inner', [4n]) },
      { from, to: ops, input: input('write', [1n, 2n]), gas: '0x5208' },
      { from, input: blockhashOf(1) },
    ];
    for (const request of requests) {
      const { worker, main } = await both(local, request, chain.head());
      expect(worker, JSON.stringify(request)).to.deep.equal(main);
    }
    const estimate = await both(local, { from, to: ops, input: input('spawnAndDestroy', [2n]), value: '0x1' }, chain.head(), 'estimate');
    expect(estimate.worker).to.deep.equal(estimate.main).and.to.have.property('estimate');
    // The failures above are real failures, not a worker that answers nothing.
    expect((await both(local, requests[3], chain.head())).worker).to.have.property('fault', 'revert');
  });

  it('follows the chain: after blocks change the state, the worker reads the new state', async () => {
    const { local, ops } = await setUp();
    const { chain } = node.node.services;
    const read = { to: ops, input: input('slots', [9n]) } as TransactionCall;
    const before = await both(local, read, chain.head());
    for (const value of [5n, 6n]) {
      await node.call('eth_sendRawTransaction', [await signTx({ key: devKey(8), nonce: Number(value - 5n), to: ops, value: 0n, data: input('write', [9n, value]), gas: 200_000n })]);
      const after = await both(local, read, chain.head());
      expect(after.worker).to.deep.equal(after.main).and.to.not.deep.equal(before.main);
    }
  });
});
