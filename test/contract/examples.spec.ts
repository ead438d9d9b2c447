// Every example pairing in openrpc.json, replayed against a fresh dev node: the contract's examples are
// real answers, not illustrations. Examples that need chain history, or whose method is not served
// yet, are reported as pending with the reason in their title — never dropped silently.
import { expect } from 'chai';
import type { MethodName } from '../../generated/index.js';
import { loadContract } from '../../shared/contract/document.js';
import { deref as derefIn } from '../../shared/contract/refs.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { RpcCallError } from '../helpers/rpc.js';
import { WsRpc } from '../helpers/ws-rpc.js';

type Json = Record<string, unknown>;
interface ExampleParam {
  name: string;
  value: unknown;
}
interface Example {
  name: string;
  params: ExampleParam[];
  result?: { value: unknown };
  'x-fixture'?: string;
  /** members of the result that are random per run of the node (hardhat_metadata's instanceId): taken from the answer */
  'x-per-run'?: string[];
}

const document = loadContract();

const deref = <T>(value: unknown): T => derefIn<T>(document, value);

/** Params that carry an id the server hands out, and how to get a live one from a fresh node. */
const ID_MAKERS: Record<string, { method: MethodName; params: unknown[] }> = {
  filterId: { method: 'eth_newFilter', params: [{ fromBlock: 'latest', toBlock: 'latest' }] },
  subscriptionId: { method: 'eth_subscribe', params: ['newHeads'] },
  snapshotId: { method: 'evm_snapshot', params: [] },
};

/** Subscriptions live on a WebSocket connection; everything else is asked over HTTP. */
const OVER_WEBSOCKET = new Set<string>(['eth_subscribe', 'eth_unsubscribe']);

/** Fixtures whose examples a fresh dev node answers (exactly, or for `wall-clock` in shape: the answer depends on when it is asked). */
const REPRODUCIBLE = new Set([undefined, 'dev-genesis', 'server-assigned-id', 'self', 'wall-clock']);

/** The reason a method is not served yet, or undefined when `error` is some other failure. */
function notServedYet(error: unknown): string | undefined {
  return error instanceof RpcCallError && /not (yet )?supported/i.test(error.message) ? error.message : undefined;
}

describe('openrpc.json examples, replayed against a fresh dev node', () => {
  let node: TestNode | undefined;
  let ws: WsRpc | undefined;
  afterEach(async () => {
    await ws?.close();
    await node?.destroy();
    [ws, node] = [undefined, undefined];
  });

  for (const rawMethod of document.methods as unknown[]) {
    const method = deref<{ name: MethodName; examples?: unknown[] }>(rawMethod);
    for (const example of (method.examples ?? []).map((e) => deref<Example>(e))) {
      const fixture = example['x-fixture'];
      const title = `${method.name}: ${example.name}${fixture === undefined ? '' : ` [${fixture}]`}`;

      if (!REPRODUCIBLE.has(fixture)) {
        it.skip(`${title} — skipped here: needs chain history a fresh node does not have (the spec that makes that chain replays it)`);
        continue;
      }

      it(title, async function () {
        const skip = (reason: string) => {
          this.test!.title += ` — skipped: ${reason}`;
          this.skip();
        };
        node = await startTestNode();
        if (OVER_WEBSOCKET.has(method.name)) ws = await WsRpc.connect(node.url);
        const [live, socket] = [node, ws];
        const call = (name: MethodName, args: unknown[]) => (socket !== undefined ? socket.call(name, args as never) : live.call(name, args as never));
        const params = example.params.map((p) => p.value);
        const idParam = example.params.findIndex((p) => p.name in ID_MAKERS);

        if (fixture === 'server-assigned-id' && idParam >= 0) {
          // The example's id is one a past server handed out: ask this one for a live id first.
          const maker = ID_MAKERS[example.params[idParam].name];
          try {
            params[idParam] = await call(maker.method, maker.params);
          } catch (error) {
            if (error instanceof RpcCallError) return skip(`needs an id from ${maker.method}, which answered: ${error.message}`);
            throw error;
          }
        }

        let result: unknown;
        try {
          result = await call(method.name, params);
        } catch (error) {
          const reason = notServedYet(error);
          if (reason !== undefined) return skip(`not served (${reason})`);
          throw error;
        }

        const expected = example.result?.value;
        if (fixture === 'server-assigned-id' && idParam < 0) {
          // A fresh id: only its shape can match (the contract's result validator has checked it too).
          expect(result, 'a server-assigned id').to.be.a('string').and.match(/^0x[0-9a-f]+$/);
          expect(typeof result).to.equal(typeof expected);
        } else if (fixture === 'wall-clock') {
          expect(typeof result).to.equal(typeof expected);
        } else if (fixture === 'self') {
          // The example abridges the document; the answer is the whole of it.
          expect(result).to.deep.equal(document);
          const abridged = expected as { openrpc: string; info: Json };
          expect(result).to.include({ openrpc: abridged.openrpc });
          expect((result as { info: Json }).info).to.include(abridged.info);
        } else {
          const perRun = example['x-per-run'] ?? [];
          const answer = result as Json;
          const wanted = perRun.length === 0 ? expected : { ...(expected as Json), ...Object.fromEntries(perRun.map((key) => [key, answer[key]])) };
          for (const key of perRun) expect(answer[key], `${key}, random per run`).to.be.a('string');
          expect(result).to.deep.equal(wanted);
        }
      });
    }
  }
});
