// Forking a remote over ws://: the same lazily fetched state, over one WebSocket.
import { expect } from 'chai';
import { balanceOfData, direct, seedRemote, startFork, type ForkingNode, type SeededRemote } from '../helpers/fork-remote.js';

describe('forking over a WebSocket', () => {
  let remote: SeededRemote;
  let fork: ForkingNode;

  before(async () => {
    remote = await seedRemote({ blocks: 1, perBlock: 6 });
    fork = await startFork(remote.node.url.replace(/^http:/, 'ws:'), { blockNumber: remote.forkBlock });
  });
  after(async () => {
    await fork?.destroy();
    await remote?.node.destroy();
  });

  it('reads the remote’s state at the fork block through ws://', async () => {
    const at = `0x${remote.forkBlock.toString(16)}`;
    const answers = await Promise.all(remote.holders.map((holder) => fork.call('eth_call', [{ to: remote.token, data: balanceOfData(holder) }, 'latest'])));
    for (const [i, holder] of remote.holders.entries()) {
      expect(answers[i]).to.equal(await direct(remote, 'eth_call', [{ to: remote.token, data: balanceOfData(holder) }, at]));
    }
  });

  it('names the remote with its ws:// scheme', async () => {
    expect((await fork.call('anvil_nodeInfo', [])).forkConfig.forkUrl).to.match(/^ws:\/\/127\.0\.0\.1:\d+$/);
  });
});
