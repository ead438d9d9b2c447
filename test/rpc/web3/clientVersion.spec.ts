import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../src/contract.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('web3_clientVersion', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('answers evm-node/v<package version>, as the contract documents', async () => {
    const { version } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string };
    expect(await node.call('web3_clientVersion', [])).to.equal(`evm-node/v${version}`);
  });
});
