// The first eth_simulateV1 a node answers after it starts: the VM library loads during that very
// request, after the simulated blocks' fork rules were made (it used to answer -32603, "Missing
// parameter value for stopGas", until some eth_call or block had loaded the library first). A node
// process of its own, since the library loads once per process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { spawnNode, type ChildNode } from '../../helpers/child-node.js';
import { DEV_ADDRESSES } from '../../helpers/node.js';

describe('eth_simulateV1 as the first request after a start', function () {
  this.timeout(60_000);
  let dir: string;
  let node: ChildNode;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evm-node-first-simulate-'));
    node = await spawnNode(dir);
  });
  after(async () => {
    await node?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('simulates the block, as every later one does', async () => {
    const [block] = await node.call('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }] }] }, 'latest']);
    expect(block.calls).to.deep.equal([{ returnData: '0x', logs: [], gasUsed: '0x5208', maxUsedGas: '0x5208', status: '0x1' }]);
    expect(node.stderr()).to.not.include('unhandled error');
  });
});
