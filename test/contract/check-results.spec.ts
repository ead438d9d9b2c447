// --check-results: every result checked against its method's result schema before it leaves.
import { expect } from 'chai';
import { ResultCheck } from '../../src/rpc/result-check.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';

describe('--check-results', () => {
  it('logs a result outside its schema with the method, the JSON path and the rule, and counts it', () => {
    const lines: string[] = [];
    const check = new ResultCheck({ error: (line) => lines.push(line) });
    check.check('eth_getBlockByNumber', { number: 7 });
    check.check('eth_chainId', '0x7a69');
    expect(check.violations).to.equal(1);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^--check-results: eth_getBlockByNumber answered outside its contract: invalid result/);
    expect(lines[0]).to.match(/must/);
  });

  describe('on a node', () => {
    let node: TestNode;
    before(async () => {
      node = await startTestNode({ checkResults: true });
    });
    after(() => node.destroy());

    it('reports the count in /health, zero while every result keeps its contract', async () => {
      await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }]);
      await node.call('eth_getBlockByNumber', ['latest', true]);
      await node.call('txpool_content', []);
      const health = (await (await fetch(`${node.url}/health`)).json()) as { ok: boolean; resultViolations?: number };
      expect(health.ok).to.equal(true);
      expect(health.resultViolations).to.equal(0);
    });

    it('is off by default: /health then says nothing about results', async () => {
      const plain = await startTestNode({ checkResults: false });
      try {
        const health = (await (await fetch(`${plain.url}/health`)).json()) as Record<string, unknown>;
        expect(health).to.not.have.property('resultViolations');
      } finally {
        await plain.destroy();
      }
    });
  });
});
