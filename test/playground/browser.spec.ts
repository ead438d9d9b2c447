// The playground in a real headless browser (Debian's chromium driven by playwright-core): the page lists the
// contract, sends eth_getBlockByNumber and shows the genesis block with the schema verdict, shows -32602 for a
// bad param, keeps a history, shows each method's "since" version and deprecation. Screenshots go to test-output/.
//
// CI must run it (.ci/run installs Debian's chromium, and with CI set a missing browser fails the suite). On a
// machine without a browser a local `npm test` skips it and says so loudly; CHROMIUM_PATH points at another binary.
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { methodNames } from '../../generated/index.js';
import { projectRoot } from '../../shared/contract/root.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { missingTool } from '../helpers/required-tool.js';
import { RpcCallError, rpc } from '../helpers/rpc.js';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const CHROMIUM = CANDIDATES.find((candidate): candidate is string => candidate !== undefined && existsSync(candidate));
const INSTALL_HINT = 'apt-get install -y chromium (as .ci/run does), or set CHROMIUM_PATH';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const OUTPUT = path.join(projectRoot(), 'test-output');

describe('playground in a headless browser', function () {
  this.timeout(120_000);
  let node: TestNode;
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];
  const foreignRequests: string[] = [];

  before(async function () {
    if (CHROMIUM === undefined) missingTool(this, 'the playground browser spec', 'no chromium', INSTALL_HINT);
    mkdirSync(OUTPUT, { recursive: true });
    node = await startTestNode();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const origin = new URL(node.url).origin;
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));
    page.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(origin) && !url.startsWith('data:')) foreignRequests.push(url);
    });
  });

  after(async function () {
    await browser?.close();
    await node?.destroy();
  });

  it('lists every method from rpc.discover', async function () {
    await page.goto(node.url + '/');
    await page.waitForSelector('body[data-ready="true"]');
    const listed = await page.locator('.method-link').evaluateAll((els) => els.map((e) => e.getAttribute('data-method')));
    expect([...listed].sort()).to.deep.equal([...methodNames]);
    expect(await page.textContent('#contract-info')).to.match(new RegExp(`${methodNames.length} methods`));
  });

  it('shows a method with its summary, description, params and schemas, pre-filled from its example', async function () {
    await page.click('[data-method="eth_getBlockByNumber"]');
    await page.waitForSelector('#method-name');
    const doc = await rpc<{ methods: { name: string; summary: string; description: string }[] }>(node.url, 'rpc.discover');
    const m = doc.methods.find((x) => x.name === 'eth_getBlockByNumber')!;
    const detail = (await page.textContent('#detail')) ?? '';
    expect(detail).to.include(m.summary);
    expect(detail).to.include(m.description);
    expect(detail).to.include('param schema');
    expect(detail).to.include('result schema');
    expect(JSON.parse(await page.inputValue('[data-param="0"]'))).to.equal('0x0');
    expect(JSON.parse(await page.inputValue('[data-param="1"]'))).to.equal(false);
  });

  it("shows the contract version that introduced the method (x-since)", async function () {
    const doc = await rpc<{ methods: { name: string; 'x-since': string }[] }>(node.url, 'rpc.discover');
    const since = doc.methods.find((x) => x.name === 'eth_getBlockByNumber')!['x-since'];
    expect(await page.textContent('#method-since')).to.equal(`since ${since}`);
    expect(await page.locator('#method-deprecated').count()).to.equal(0);
  });

  it('sends eth_getBlockByNumber and shows the genesis block, valid against the result schema', async function () {
    await page.click('#send');
    await page.waitForSelector('#response #verdict');
    expect(await page.textContent('#verdict')).to.equal("✓ result is valid against the contract's result schema");
    const shown = JSON.parse((await page.textContent('#result')) ?? 'null') as { number: string; hash: string };
    const genesis = await rpc<{ hash: string }>(node.url, 'eth_getBlockByNumber', ['0x0', false]);
    expect(shown.number).to.equal('0x0');
    expect(shown.hash).to.equal(genesis.hash);
    await page.screenshot({ path: path.join(OUTPUT, 'playground.png'), fullPage: false });
  });

  it('sends an invalid param and shows the -32602 error with its message', async function () {
    await page.fill('[data-param="0"]', '"bogus"');
    await page.click('#send');
    await page.waitForSelector('#error-code');
    const expected = await rpc(node.url, 'eth_getBlockByNumber', ['bogus', false]).then(
      () => expect.fail('the node accepted "bogus"'),
      (e: unknown) => e as RpcCallError,
    );
    expect(await page.textContent('#error-code')).to.equal('-32602');
    expect(await page.textContent('#error-message')).to.equal(expected.message);
    expect(await page.textContent('#verdict')).to.match(/^error -32602 — a code this method declares in the contract/);
    await page.screenshot({ path: path.join(OUTPUT, 'playground-error.png'), fullPage: false });
  });

  it('keeps a request history that reopens earlier answers', async function () {
    const items = page.locator('#history li button');
    expect(await items.count()).to.equal(2);
    expect(await items.nth(0).textContent()).to.include('error -32602');
    expect(await items.nth(1).textContent()).to.include('✓ valid');
    await items.nth(1).click();
    await page.waitForSelector('#result');
    expect(JSON.parse(await page.inputValue('[data-param="0"]'))).to.equal('0x0');
    expect((JSON.parse((await page.textContent('#result')) ?? 'null') as { number: string }).number).to.equal('0x0');
  });

  it('flags a JSON typo locally without sending', async function () {
    await page.fill('[data-param="0"]', '"0x0');
    await page.click('#send');
    expect(await page.textContent('#local-error')).to.match(/^param 0 \(blockNumber\) is not valid JSON/);
    expect(await page.locator('#history li button').count()).to.equal(2);
  });

  it('marks a method the contract deprecates, in the list and on its page', async function () {
    // This contract deprecates nothing yet, so the page is shown one that does: rpc.discover's answer, edited.
    const deprecatedPage = await browser!.newPage();
    await deprecatedPage.route(node.url + '/', async (route) => {
      const body = route.request().postDataJSON() as { method?: string } | null;
      if (body?.method !== 'rpc.discover') return route.continue();
      const response = await route.fetch();
      const answer = (await response.json()) as { result: { methods: { name: string; deprecated?: boolean }[] } };
      answer.result.methods.find((m) => m.name === 'eth_accounts')!.deprecated = true;
      await route.fulfill({ response, json: answer });
    });
    try {
      await deprecatedPage.goto(node.url + '/#eth_accounts');
      await deprecatedPage.waitForSelector('body[data-ready="true"]');
      expect(await deprecatedPage.getAttribute('[data-method="eth_accounts"]', 'class')).to.include('deprecated');
      expect(await deprecatedPage.getAttribute('[data-method="eth_chainId"]', 'class')).to.not.include('deprecated');
      expect(await deprecatedPage.textContent('#method-deprecated')).to.equal('deprecated');
      await deprecatedPage.screenshot({ path: path.join(OUTPUT, 'playground-deprecated.png'), fullPage: false });
    } finally {
      await deprecatedPage.close();
    }
  });

  it('pre-fills eth_sendTransaction without a nonce, so its example sends on a chain that has moved on', async function () {
    await rpc(node.url, 'eth_sendTransaction', [{ from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', value: '0x1' }]);
    await page.click('[data-method="eth_sendTransaction"]');
    await page.waitForSelector('#method-name');
    const request = JSON.parse(await page.inputValue('[data-param="0"]')) as Record<string, unknown>;
    expect(request).to.include.keys('from', 'to', 'value');
    expect(request).to.not.have.property('nonce');
    await page.click('#send');
    await page.waitForSelector('#response #verdict');
    const hash = JSON.parse((await page.textContent('#result')) ?? 'null') as string;
    const sent = await rpc<{ nonce: string }>(node.url, 'eth_getTransactionByHash', [hash]);
    expect(sent.nonce).to.equal('0x1');
  });

  it('loaded nothing from any other origin and raised no page errors', function () {
    expect(foreignRequests).to.deep.equal([]);
    expect(pageErrors).to.deep.equal([]);
  });
});
