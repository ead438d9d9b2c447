// Does openrpc.json declare every error the node answers? The test helpers record each error the node sends during the
// whole suite (test/helpers/declared-errors.ts); once every test has run, this root hook fails on a code a method
// answered without declaring it. -32700 and -32600 answer a request that never reached a method; -32603 is a bug
// unless the method declares it on purpose.
import { expect } from 'chai';
import { loadContract } from '../../src/contract.js';
import { recordExchange, recordedErrors, undeclaredErrors, type ErrorLog } from '../helpers/declared-errors.js';

after('every error the node answered in this run is declared by its method in openrpc.json', function () {
  const undeclared = undeclaredErrors(loadContract(), recordedErrors());
  if (undeclared.length === 0) return;
  const lines = undeclared.map(
    (e) => `  ${e.method} answered ${e.code} ${JSON.stringify(e.message)}, but declares only ${e.declared.join(', ') || 'nothing'}`,
  );
  throw new Error(`errors the node sends that openrpc.json does not declare (add them to the methods' "errors"):\n${lines.join('\n')}`);
});

describe('declared errors, checked against what the node answers', function () {
  const contract = {
    methods: [
      { name: 'eth_a', errors: [{ code: -32602, message: 'Invalid params' }, { $ref: '#/components/errors/HeaderNotFound' }] },
      { name: 'eth_b', errors: [{ code: -32602, message: 'Invalid params' }] },
    ],
    components: { errors: { HeaderNotFound: { code: -32000, message: 'header not found' } } },
  };

  function logOf(pairs: [unknown, unknown][]): ErrorLog {
    const log: ErrorLog = new Map();
    for (const [request, response] of pairs) recordExchange(request, response, log);
    return log;
  }

  it('pairs errors with their requests by id, in batches too, and ignores notifications', function () {
    const log = logOf([
      [
        JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'eth_a', params: [] },
          { jsonrpc: '2.0', id: 'x', method: 'eth_b', params: [] },
          { jsonrpc: '2.0', method: 'eth_b', params: [] },
        ]),
        [
          { jsonrpc: '2.0', id: 'x', error: { code: -32000, message: 'boom' } },
          { jsonrpc: '2.0', id: 1, result: '0x1' },
        ],
      ],
    ]);
    expect([...log].map(([m, codes]) => [m, [...codes]])).to.deep.equal([['eth_b', [[-32000, 'boom']]]]);
  });

  it('accepts declared codes (inline or by $ref) and envelope errors, and skips methods outside the contract', function () {
    const log = logOf([
      [{ jsonrpc: '2.0', id: 1, method: 'eth_a' }, { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'header not found' } }],
      [{ jsonrpc: '2.0', id: 2, method: 'eth_b' }, { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad' } }],
      [{ jsonrpc: '1.0', id: 3, method: 'eth_b' }, { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'invalid request' } }],
      [{ jsonrpc: '2.0', id: 4, method: 'eth_nope' }, { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'no such method' } }],
    ]);
    expect(undeclaredErrors(contract, log)).to.deep.equal([]);
  });

  it('reports a code the method does not declare, and -32603 always', function () {
    const log = logOf([
      [{ jsonrpc: '2.0', id: 1, method: 'eth_b' }, { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'header not found' } }],
      [{ jsonrpc: '2.0', id: 2, method: 'eth_a' }, { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'internal error' } }],
    ]);
    expect(undeclaredErrors(contract, log)).to.deep.equal([
      { method: 'eth_a', code: -32603, message: 'internal error', declared: [-32602, -32000] },
      { method: 'eth_b', code: -32000, message: 'header not found', declared: [-32602] },
    ]);
  });
});
