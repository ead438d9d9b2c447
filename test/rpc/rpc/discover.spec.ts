import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { methodNames } from '../../../generated/index.js';
import { projectRoot } from '../../../src/contract.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('rpc.discover', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('answers the OpenRPC document the node is built from, unabridged', async () => {
    const document = JSON.parse(readFileSync(join(projectRoot(), 'openrpc.json'), 'utf8')) as unknown;
    expect(await node.call('rpc.discover', [])).to.deep.equal(document);
  });

  it('lists exactly the methods the node serves', async () => {
    const document = await node.call('rpc.discover', []);
    expect(document.methods.map((m) => m.name).sort()).to.deep.equal([...methodNames].sort());
  });
});
