// Every method of the contract, called with schema-derived bad values: each answer must be a JSON-RPC
// response within 2 s, an error must not be -32603 (which means a bug), a result must satisfy the
// method's result schema — and the chain must still mine afterwards.
import { expect } from 'chai';
import { methodNames } from '../../generated/index.js';
import { loadContract } from '../../src/contract.js';
import { declaredErrors } from '../../tools/contract/diff/diff.js';
import { problemWith, send } from '../helpers/fuzz-answers.js';
import { fuzzCalls, methodOf } from '../helpers/fuzz-inputs.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';

const SLOW_MS = 2_000;
const FRESH = '0x00000000000000000000000000000000f2e5f2e5';

describe('fuzzing every method of the contract', function () {
  this.timeout(120_000);
  const contract = loadContract();
  let node: TestNode;

  before(async () => {
    node = await startTestNode();
  });
  after(async () => node.destroy());

  for (const method of methodNames) {
    it(`${method}: every malformed call gets a JSON-RPC answer within ${SLOW_MS / 1000} s, never -32603`, async () => {
      const problems: string[] = [];
      const declared = new Set([...declaredErrors(contract, methodOf(contract, method)).keys()]);
      for (const call of fuzzCalls(contract, method)) {
        const problem = problemWith(method, await send(node.url, method, call.params), declared, SLOW_MS);
        if (problem !== undefined) problems.push(`${call.label}: ${problem}`);
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  }

  it('leaves a chain that still mines, on demand and on each transaction', async () => {
    await node.call('evm_setIntervalMining', [0]);
    await node.call('evm_setAutomine', [true]);
    const before = BigInt(await node.call('eth_blockNumber', []));
    await node.call('evm_mine', []);
    expect(BigInt(await node.call('eth_blockNumber', []))).to.equal(before + 1n);
    // To an account no fuzz call funded: a reset may have left the dev accounts holding 2^256-1, which no transfer can add to.
    const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[1], to: FRESH, value: '0x1' }]);
    const receipt = await node.call('eth_getTransactionReceipt', [hash]);
    expect(receipt?.status).to.equal('0x1');
    expect(await node.call('eth_getBalance', [FRESH, 'latest'])).to.equal('0x1');
  });
});
