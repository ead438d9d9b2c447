// WebSocket clients that stop reading: the output the node holds for all of them together stays
// under --ws-max-backlog-total, those holding the most are closed with a reason they read once they
// read again, the others are served in full, and what the dropped ones held is freed.
import { expect } from 'chai';
import { liveBytes, MiB } from '../helpers/memory.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { sleep, until } from '../helpers/wait.js';
import { WsRpc } from '../helpers/ws-rpc.js';

const TOTAL = 8 * MiB;
/** Far above what any one client is sent, so only the total applies. */
const PER_CONNECTION = 256 * MiB;
const FLOODED = 10;
/** rpc.discover answers with the whole contract, ~100 KB: each flooded client is sent ~15 MB. */
const FLOOD_EACH = 150;
const DISCOVER = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'rpc.discover', params: [] });

/** Counts the messages `ws` receives (none while its socket is paused). */
function countMessages(ws: WsRpc): () => number {
  let count = 0;
  ws.socket.on('message', () => count++);
  return () => count;
}

describe('WebSocket: clients that stop reading', function () {
  this.timeout(120_000);
  let node: TestNode;

  before(async () => {
    node = await startTestNode({ wsMaxBacklog: PER_CONNECTION, wsMaxBacklogTotal: TOTAL });
  });
  after(async () => node.destroy());

  it('holds at most --ws-max-backlog-total for all of them, closes the largest with 1008 and a reason, and frees what they held', async () => {
    const { websockets } = node.node;
    const warm = await WsRpc.connect(node.url);
    await warm.call('rpc.discover', []);
    await warm.close();
    const baseline = liveBytes();

    // A client that stops reading with a little held for it: once the kernel's buffers are full, five answers more.
    const patient = await WsRpc.connect(node.url);
    const patientAnswers = countMessages(patient);
    patient.stopReading();
    let sentToPatient = 0;
    while (websockets.backlogBytes === 0) {
      patient.socket.send(DISCOVER(sentToPatient++));
      await sleep(10);
      if (sentToPatient > 1000) expect.fail('the kernel never filled');
    }
    for (let i = 0; i < 5; i++) patient.socket.send(DISCOVER(sentToPatient++));
    await until(() => websockets.backlogBytes > 5 * 90_000, "the patient client's answers held");

    // Clients that read, busy throughout, and clients that stop reading and ask for far more than the total.
    const readers = await Promise.all([WsRpc.connect(node.url), WsRpc.connect(node.url)]);
    const reading = readers.map(async (ws) => {
      for (let i = 0; i < 20; i++) await ws.call('rpc.discover', []);
    });
    const flooded = await Promise.all(Array.from({ length: FLOODED }, () => WsRpc.connect(node.url)));
    for (const ws of flooded) ws.stopReading();
    for (let id = 0; id < FLOOD_EACH; id++) for (const ws of flooded) ws.socket.send(DISCOVER(id));

    await until(() => websockets.size === 1 + readers.length, 'the flooded clients dropped', 60_000);
    await reading;
    expect(websockets.backlogBytes).to.be.within(1, TOTAL);
    // Queued text is a JS string: up to two bytes per byte sent, plus what answering left behind.
    expect(liveBytes() - baseline, 'memory held while they do not read').to.be.below(2 * TOTAL + 16 * MiB);

    for (const ws of [patient, ...flooded]) ws.resumeReading();
    for (const { code, reason } of await Promise.all(flooded.map((ws) => ws.closed))) {
      expect(code).to.equal(1008);
      expect(reason).to.equal(`server backlog over ${TOTAL} bytes and this connection held the most: read faster`);
    }
    await until(() => patientAnswers() === sentToPatient, 'every answer read by the patient client', 60_000);
    expect(await patient.call('eth_chainId', [])).to.equal('0x7a69');

    await Promise.all([patient, ...readers].map((ws) => ws.close()));
    await until(() => websockets.size === 0, 'all connections gone');
    expect(websockets.backlogBytes).to.equal(0);
    expect(liveBytes() - baseline, 'memory held once they are gone').to.be.below(8 * MiB);
  });
});
