// Answers whose size the caller decides, refused past --max-response-bytes before they are built
// whole or serialised: eth_call's return data, eth_simulateV1's blocks, a batch's results together.
import { expect } from 'chai';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { rpcRaw } from '../helpers/rpc.js';
import { DEV_ADDRESSES } from '../helpers/node.js';
import { expectRpcError } from '../helpers/transactions.js';

const LIMIT = 4096;
const PROBE = '0x00000000000000000000000000000000000c0de3';
/** Code returning `bytes` zero bytes: PUSH2 bytes, PUSH1 0, RETURN. */
const returning = (bytes: number) => `0x61${bytes.toString(16).padStart(4, '0')}6000f3`;
const callReturning = (bytes: number) => [{ to: PROBE }, 'latest', { [PROBE]: { code: returning(bytes) } }] as const;
const refusal = (what: string) => `response too large: ${what} passed ${LIMIT} bytes of JSON, this node's --max-response-bytes`;

describe(`answers within --max-response-bytes (${LIMIT})`, () => {
  let node: TestNode;

  before(async () => {
    node = await startTestNode({ maxResponseBytes: LIMIT });
  });
  after(() => node.destroy());

  it('eth_call: return data whose hex fits is answered; a byte more is -32003 naming the limit', async () => {
    // "0x" and two characters a byte, in quotes: 2,046 bytes make 4,096.
    expect(await node.call('eth_call', [...callReturning(2046)])).to.have.length(2 + 2 * 2046);
    const refused = await expectRpcError(node.call('eth_call', [...callReturning(2047)]), -32003, refusal('the return data'));
    expect(refused.data).to.deep.equal({ limit: LIMIT });
  });

  it('eth_simulateV1: stops at the call whose return data takes the blocks past the limit', async () => {
    const calls = [{ from: DEV_ADDRESSES[0], to: PROBE }, { from: DEV_ADDRESSES[0], to: PROBE }];
    await expectRpcError(
      node.call('eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: { [PROBE]: { code: returning(1024) } }, calls }] }, 'latest']),
      -32003,
      `${refusal('the simulation')}; simulate fewer calls, or calls that return and log less`,
    );
    const [block] = await node.call('eth_simulateV1', [{ blockStateCalls: [{ stateOverrides: { [PROBE]: { code: returning(32) } }, calls: calls.slice(1) }] }, 'latest']);
    expect(block.calls[0].returnData).to.have.length(66);
  });

  it("a batch's results share the limit: the one that passes it and those after it are -32003", async () => {
    const batch = [1, 2, 3, 4].map((id) => ({ jsonrpc: '2.0', id, method: 'eth_call', params: callReturning(700) }));
    const { json } = await rpcRaw(node.url, batch);
    const answers = json as { id: number; result?: string; error?: { code: number; message: string } }[];
    expect(answers.map((a) => a.id)).to.deep.equal([1, 2, 3, 4]);
    // 1,404 bytes a result: two fit in 4,096, the third does not.
    expect(answers.slice(0, 2).map((a) => a.result?.length)).to.deep.equal([1402, 1402]);
    expect(answers.slice(2).map((a) => a.error)).to.deep.equal([2, 3].map(() => ({ code: -32003, message: refusal("the batch's results together"), data: { limit: LIMIT } })));
  });
});
