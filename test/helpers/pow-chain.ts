// A node serving the execution-apis test chain, imported: proof-of-work blocks (18 of them naming an
// uncle), then the merge, then Shanghai to Osaka. Nothing mines.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../src/config.js';
import { importChainFiles } from '../../src/import-chain.js';
import { executionApisFixtures } from './execution-apis-fixtures.js';
import { startTestNode, type TestNode } from './node.js';

export interface PowChainNode {
  node: TestNode;
  /** stops the node and removes its data dir */
  destroy(): Promise<void>;
}

export async function startPowChainNode(): Promise<PowChainNode> {
  const fixtures = executionApisFixtures();
  const dataDir = await mkdtemp(join(tmpdir(), 'evm-node-pow-chain-'));
  await importChainFiles(
    { ...DEFAULTS, genesisFlagsGiven: true, dataDir, genesis: join(fixtures, 'genesis.json'), forkchoice: join(fixtures, 'headfcu.json') },
    [join(fixtures, 'chain.rlp')],
    { write: () => undefined },
  );
  const node = await startTestNode({ mining: false }, dataDir);
  return {
    node,
    destroy: async () => {
      await node.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A proof-of-work chain's node and a dev chain's, for one describe block; `block3` names one uncle. */
export interface UncleFixture {
  pow: PowChainNode;
  dev: TestNode;
  block3: { hash: string; uncles: string[] };
}

/** Registers the describe block's before and after hooks that make and stop an {@link UncleFixture}. */
export function uncleFixture(): UncleFixture {
  const fixture = {} as UncleFixture;
  before(async () => {
    fixture.pow = await startPowChainNode();
    fixture.dev = await startTestNode();
    fixture.block3 = (await fixture.pow.node.call('eth_getBlockByNumber', ['0x3', false]))!;
  });
  after(async () => {
    await fixture.pow?.destroy();
    await fixture.dev?.destroy();
  });
  return fixture;
}
