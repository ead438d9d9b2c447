// The playground's routes over plain HTTP: the page, its assets, and that JSON-RPC still owns POST /.
import { expect } from 'chai';
import { methodNames } from '../../generated/index.js';
import { rpc } from '../helpers/rpc.js';
import { startTestNode, type TestNode } from '../helpers/node.js';

describe('playground routes', function () {
  let node: TestNode;

  before(async function () {
    node = await startTestNode();
  });

  after(async function () {
    await node?.destroy();
  });

  for (const path of ['/', '/playground']) {
    it(`GET ${path} serves the page with a same-origin-only policy`, async function () {
      const res = await fetch(node.url + path);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).to.include("connect-src 'self'");
      expect(csp).to.include("script-src 'self'");
      const html = await res.text();
      expect(html).to.include('<script type="module" src="/playground/app.js">');
      expect(html, 'no third-party URLs').to.not.match(/https?:\/\//);
    });
  }

  it('serves its scripts and stylesheet from the node', async function () {
    for (const [path, type] of [
      ['/playground/app.js', 'text/javascript; charset=utf-8'],
      ['/playground/schema-check.js', 'text/javascript; charset=utf-8'],
      ['/playground/style.css', 'text/css; charset=utf-8'],
    ] as const) {
      const res = await fetch(node.url + path);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type'), path).to.equal(type);
      const body = await res.text();
      expect(body.length, path).to.be.greaterThan(100);
    }
  });

  it('serves every module its scripts import, from its own origin', async function () {
    const seen = new Set<string>();
    const pending = ['/playground/app.js'];
    while (pending.length > 0) {
      const path = pending.pop()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const res = await fetch(node.url + path);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type'), path).to.equal('text/javascript; charset=utf-8');
      for (const [, specifier] of (await res.text()).matchAll(/(?:from|import)\s+["']([^"']+)["']/g)) {
        const url = new URL(specifier!, node.url + path);
        expect(url.origin, `${path} imports ${specifier}`).to.equal(new URL(node.url).origin);
        pending.push(url.pathname);
      }
    }
    const modules = ['app', 'contract', 'dom', 'history', 'method-list', 'method-view', 'response', 'rpc', 'schema-check'].map((name) => `/playground/${name}.js`);
    expect([...seen].sort()).to.deep.equal([...modules, '/shared/contract/json.js', '/shared/contract/refs.js']);
  });

  it('leaves POST / to JSON-RPC', async function () {
    expect(await rpc(node.url, 'eth_chainId')).to.equal('0x7a69');
    const doc = await rpc<{ methods: { name: string }[] }>(node.url, 'rpc.discover');
    expect(doc.methods.map((m) => m.name).sort()).to.deep.equal([...methodNames]);
  });

  it('answers other paths with a JSON 404', async function () {
    const res = await fetch(node.url + '/playground/nope.js');
    expect(res.status).to.equal(404);
    expect(res.headers.get('content-type')).to.equal('application/json');
  });
});
