// Who may call the node from a browser: wallets (browser extensions) and Remix without flags, any
// other web page never — it cannot get past the CORS preflight, and a simple request (text/plain, a
// form post) runs no method. Refusals are logged once per value with the flag that lifts them.
import { networkInterfaces, hostname } from 'node:os';
import { expect } from 'chai';
import WebSocket from 'ws';
import type { Logger } from '../../src/log.js';
import { acceptedHosts } from '../../src/transport/hosts.js';
import { DEV_ADDRESSES, startTestNode, testLogger, type TestNode } from '../helpers/node.js';
import { rawHttp } from '../helpers/raw-http.js';

const METAMASK = 'chrome-extension://nkbihfbeogaeaoehlefnkodbefgpgknn';
const FIREFOX_WALLET = 'moz-extension://2f6b9a4e-1c4d-4e0a-9a52-6b6c1f0e9d11';
const REMIX = 'https://remix.ethereum.org';
const EVIL = 'https://evil.example';

const SEND = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0x1' }] });

describe('transport: browser origins and Host headers', () => {
  let node: TestNode;
  let warnings: string[];

  const start = async (overrides: Parameters<typeof startTestNode>[0] = {}) => {
    warnings = [];
    const log: Logger = { ...testLogger, warn: (message: string) => void warnings.push(message) };
    node = await startTestNode(overrides, undefined, { log });
  };
  const post = (headers: Record<string, string>, body = SEND) => rawHttp(node.url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
  const preflight = (origin: string) =>
    rawHttp(node.url, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });

  afterEach(async () => {
    await node?.destroy();
  });

  for (const [who, origin] of [
    ['MetaMask (a Chrome extension)', METAMASK],
    ['a Firefox extension', FIREFOX_WALLET],
    ['Remix', REMIX],
  ] as const) {
    it(`serves ${who} without flags: preflight and call`, async () => {
      await start();
      const allowed = await preflight(origin);
      expect(allowed.status).to.equal(204);
      expect(allowed.headers['access-control-allow-origin']).to.equal(origin);
      const call = await post({ Origin: origin });
      expect(call.status).to.equal(200);
      expect(call.headers['access-control-allow-origin']).to.equal(origin);
      expect(JSON.parse(call.text).result).to.match(/^0x[0-9a-f]{64}$/);
    });
  }

  it('takes WebSocket connections from a browser extension', async () => {
    await start();
    const socket = new WebSocket(node.url.replace('http:', 'ws:'), { origin: METAMASK });
    try {
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade answered ${res.statusCode}`)));
      });
    } finally {
      socket.terminate();
    }
  });

  it('refuses any other web page, and logs the refusal once with the flag that allows it', async () => {
    await start();
    expect((await preflight(EVIL)).status).to.equal(403);
    expect((await post({ Origin: EVIL })).status).to.equal(403);
    expect((await post({ Origin: EVIL })).status).to.equal(403);
    expect(warnings).to.deep.equal([
      `refused a request from origin "${EVIL}": not an allowed origin, so its pages may not use the node's accounts; --cors ${EVIL} allows it`,
    ]);
    expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
  });

  it('runs no method for a simple request, which a page may send without a preflight: text/plain or a form, from any origin', async () => {
    await start();
    for (const [origin, type] of [
      [undefined, 'text/plain'],
      [METAMASK, 'text/plain;charset=UTF-8'],
      [undefined, 'application/x-www-form-urlencoded'],
      [undefined, 'multipart/form-data; boundary=x'],
    ] as const) {
      const answer = await post({ 'Content-Type': type, ...(origin === undefined ? {} : { Origin: origin }) });
      expect(answer.status, `${type} from ${origin ?? 'no origin'}`).to.equal(415);
    }
    expect((await post({ 'Content-Type': 'text/plain', Origin: EVIL })).status).to.equal(403);
    expect(await node.call('eth_blockNumber', [])).to.equal('0x0');
  });

  it('adds --cors origins to the defaults', async () => {
    await start({ cors: ['https://app.example'] });
    expect((await post({ Origin: 'https://app.example' })).status).to.equal(200);
    expect((await post({ Origin: METAMASK })).status).to.equal(200);
    expect((await post({ Origin: EVIL })).status).to.equal(403);
  });

  it('refuses an unknown Host, and logs it once with the flag that accepts it', async () => {
    await start();
    for (let i = 0; i < 2; i++) expect((await post({ Host: 'rebind.example:8545' })).status).to.equal(403);
    expect(warnings).to.deep.equal([
      'refused a request with Host "rebind.example:8545": not an accepted host (a guard against DNS rebinding); --allowed-hosts rebind.example accepts it',
    ]);
  });

  it('accepts --allowed-hosts names besides the defaults', async () => {
    await start({ allowedHosts: ['devbox.lan'] });
    expect((await post({ Host: 'devbox.lan:8545' })).status).to.equal(200);
    expect((await post({ Host: 'localhost:8545' })).status).to.equal(200);
  });
});

describe('transport: the Host headers accepted for a --host', () => {
  it('on loopback: the loopback names, and --allowed-hosts', () => {
    expect(acceptedHosts('127.0.0.1', ['devbox.lan'])).to.deep.equal(['localhost', '127.0.0.1', '[::1]', 'devbox.lan']);
  });

  it("on every interface (0.0.0.0): also the machine's addresses and name", () => {
    const accepted = acceptedHosts('0.0.0.0', []);
    const addresses = Object.values(networkInterfaces())
      .flat()
      .filter((nic) => nic !== undefined && !nic.internal)
      .map((nic) => (nic!.address.includes(':') ? `[${nic!.address}]` : nic!.address));
    expect(accepted).to.include.members(['localhost', '127.0.0.1', '[::1]', hostname().toLowerCase(), ...addresses]);
  });

  it('on one address: that address too', () => {
    expect(acceptedHosts('192.0.2.7', [])).to.include('192.0.2.7');
    expect(acceptedHosts('[2001:db8::7]', [])).to.include('[2001:db8::7]');
  });
});
