// One error model: the domain raises its own errors, each with a kind; the RPC layer alone turns them
// into JSON-RPC errors (src/rpc/domain-errors.ts) and alone builds those. Methods, the RPC layer's
// adapters, raise JSON-RPC errors for what they check themselves and let the domain's pass.
import { expect } from 'chai';
import { compiledModules, roomOf } from '../helpers/compiled-src.js';

/** The rooms that speak JSON-RPC: the layer itself, its handlers, its transports, the terminal that prints requests and answers, and the composition root (node.ts, and node-services.ts, which builds each chain's method table). */
const RPC_ROOMS = new Set(['rpc', 'methods', 'transport', 'terminal', 'node.js', 'node-services.js']);

describe('error model', () => {
  it('builds JSON-RPC errors only in src/rpc/', () => {
    const building = compiledModules().filter((m) => !m.path.startsWith('rpc/') && /new RpcError\(/.test(m.text));
    expect(building.map((m) => m.path)).to.deep.equal([]);
  });

  it('keeps the domain free of the RPC layer', () => {
    const reaching = compiledModules()
      .filter((m) => !RPC_ROOMS.has(roomOf(m.path)))
      .flatMap((m) => m.imports.filter((target) => target.startsWith('rpc/')).map((target) => `${m.path} -> ${target}`));
    expect(reaching).to.deep.equal([]);
  });

  it('raises no domain error from a method: methods answer with JSON-RPC errors', () => {
    const raising = compiledModules()
      .filter((m) => m.path.startsWith('methods/'))
      .flatMap((m) => [...m.text.matchAll(/new (\w+Error)\(/g)].map(([, name]) => `${m.path}: ${name}`));
    expect(raising).to.deep.equal([]);
  });
});
