// A long anvil_mine can be stopped: by the client going away (its connection closes) and by the
// node being told to stop (SIGTERM to the CLI). Either way the run ends at a block that landed
// whole — the first block alone, then batches of 256 — the chain holds nothing after it, and the
// node goes on (or starts again on its data dir) from there.
import { request, type ClientRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { spawnNode, type ChildNode } from '../helpers/child-node.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';
import { verifyProof } from '../helpers/proof.js';
import { rpc } from '../helpers/rpc.js';
import { WsRpc } from '../helpers/ws-rpc.js';
import { waitFor } from './support.js';

/** A million blocks: hours of work at a few hundred blocks a second. */
const MILLION = '0xf4240';

/** anvil_mine of a million blocks on its own connection, which the test may close; resolves with the answer's body, or rejects when the connection closed first. */
function mineOnOwnConnection(url: string): { req: ClientRequest; answer: Promise<string> } {
  const { hostname, port } = new URL(url);
  let req!: ClientRequest;
  const answer = new Promise<string>((resolve, reject) => {
    req = request({ host: hostname, port, method: 'POST', path: '/', headers: { 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: [MILLION] }));
  });
  answer.catch(() => undefined);
  return { req, answer };
}

const blockNumber = async (url: string) => BigInt(await rpc<string>(url, 'eth_blockNumber'));

/** The chain ends whole at `head`: the block after it is not there, and the head's state proves against its root. */
async function expectWholeAt(url: string, head: bigint): Promise<void> {
  const block = await rpc<{ number: string; stateRoot: string }>(url, 'eth_getBlockByNumber', ['latest', false]);
  expect(BigInt(block.number)).to.equal(head);
  expect(await rpc(url, 'eth_getBlockByNumber', [`0x${(head + 1n).toString(16)}`, false])).to.equal(null);
  await verifyProof(await rpc(url, 'eth_getProof', [DEV_ADDRESSES[0], [], 'latest']), block.stateRoot);
}

describe('long work stopped: anvil_mine of a million blocks', function () {
  this.timeout(120_000);

  describe('when the client goes away', () => {
    let node: TestNode;
    beforeEach(async () => {
      node = await startTestNode({ mining: false });
    });
    afterEach(() => node.destroy());

    it('stops at a landed batch soon after the connection closes, and the node mines on from there', async () => {
      const { req, answer } = mineOnOwnConnection(node.url);
      expect(await waitFor(async () => (await blockNumber(node.url)) >= 300n, 60_000), 'mining under way').to.equal(true);
      req.destroy();
      await answer.then(
        () => expect.fail('the connection was closed; no answer can come'),
        () => undefined,
      );
      // The miner's turn ends with the run: were it not stopped, this would wait for a million blocks.
      await node.node.services.miner.idle();
      const head = await blockNumber(node.url);
      expect(head < 100_000n, `stopped at block ${head}`).to.equal(true);
      // Block 1 lands alone, then batches of 256: the run stopped after a whole batch.
      expect((head - 1n) % 256n).to.equal(0n);
      await expectWholeAt(node.url, head);
      await rpc(node.url, 'evm_mine');
      expect(await blockNumber(node.url)).to.equal(head + 1n);
    });

    it('stops at a landed batch once the WebSocket that asked closes', async () => {
      const ws = await WsRpc.connect(node.url);
      ws.socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: [MILLION] }));
      expect(await waitFor(async () => (await blockNumber(node.url)) >= 300n, 60_000), 'mining under way').to.equal(true);
      await ws.close();
      await node.node.services.miner.idle();
      const head = await blockNumber(node.url);
      expect(head < 100_000n, `stopped at block ${head}`).to.equal(true);
      expect((head - 1n) % 256n).to.equal(0n);
      await expectWholeAt(node.url, head);
    });
  });

  describe('when the node is told to stop (SIGTERM)', () => {
    let dir: string;
    let node: ChildNode | undefined;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'evm-node-sigterm-'));
    });
    afterEach(async () => {
      await node?.kill9();
      node = undefined;
      await rm(dir, { recursive: true, force: true });
    });

    it('answers the call, exits cleanly at a landed batch, and starts again on its data dir from there', async () => {
      node = await spawnNode(dir, [], { logLevel: 'debug' });
      const { answer } = mineOnOwnConnection(node.url);
      expect(await waitFor(async () => (await blockNumber(node!.url)) >= 300n, 60_000), 'mining under way').to.equal(true);
      const asked = performance.now();
      const exit = await node.stop();
      expect(exit, node.stderr()).to.deep.equal({ code: 0, signal: null });
      expect(performance.now() - asked, 'stopped within 5 s').to.be.below(5_000);
      const answered = JSON.parse(await answer) as { error?: { code: number; message: string } };
      expect(answered.error?.code).to.equal(-32000);
      expect(answered.error?.message).to.match(/^mining stopped after \d+ of 1000000 blocks, at block (\d+): the node is shutting down$/);
      const stoppedAt = BigInt(/at block (\d+)/.exec(answered.error!.message)![1]);
      const landings = node.stderr().split('\n').filter((line) => /landed|SIGTERM/.test(line)).slice(-6).join('\n');

      node = await spawnNode(dir);
      expect(await blockNumber(node.url), `the head after a restart; the stopped node's last landings:\n${landings}`).to.equal(stoppedAt);
      expect((stoppedAt - 1n) % 256n).to.equal(0n);
      await expectWholeAt(node.url, stoppedAt);
      await rpc(node.url, 'evm_mine');
      expect(await blockNumber(node.url)).to.equal(stoppedAt + 1n);
    });
  });
});
