// The semver gate: openrpc.json's info.version moves from the last released contract as the diff says. Also the
// released contracts themselves, and docs/api-changelog.md, which is derived from them.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CHANGELOG_FILE, CHANGELOG_HEADER, renderChangelog } from '../../tools/contract/changelog.js';
import { readDocument } from '../../shared/contract/document.js';
import { checkVersion } from '../../tools/contract/gate.js';
import type { JsonObject } from '../../shared/contract/json.js';
import { readReleases, type Release } from '../../tools/contract/released.js';
import { projectRoot } from '../../shared/contract/root.js';

type Json = JsonObject;
const root = projectRoot();
const current = readDocument(path.join(root, 'openrpc.json'));
const releases = readReleases(root);

/** The released contract as 0.1.0 and a copy of it edited by `edit` at `version`. */
function scenario(version: string, edit: (doc: Json) => void = () => undefined): { released: Release[]; head: Json } {
  const base = structuredClone(releases[0]!.doc);
  (base.info as Json).version = '0.1.0';
  const head = structuredClone(base);
  (head.info as Json).version = version;
  edit(head);
  return { released: [{ version: '0.1.0', file: 'contract/released/openrpc-0.1.0.json', doc: base }], head };
}

const addMethod = (doc: Json) => {
  const copy = structuredClone((doc.methods as Json[]).find((m) => m.name === 'eth_chainId')!);
  copy.name = 'eth_chainIdAgain';
  (doc.methods as Json[]).push(copy);
};
const removeMethod = (doc: Json) => (doc.methods as Json[]).splice(0, 1);
const editSummary = (doc: Json) => ((doc.methods as Json[])[0]!.summary = 'Reworded.');

describe('contract version gate', function () {
  it("openrpc.json's info.version matches its changes since the last release (else it says what to set)", function () {
    const verdict = checkVersion(current, releases);
    if (!verdict.ok) throw new Error(verdict.message);
  });

  it('keeps the released contracts in contract/released/, the first being 0.1.0', function () {
    expect(releases.map((r) => r.version)[0]).to.equal('0.1.0');
    for (const r of releases) expect((r.doc.info as Json).version, r.file).to.equal(r.version);
  });

  const cases: [string, string, (doc: Json) => void, boolean, string][] = [
    ['an unchanged contract keeps its version', '0.1.0', () => undefined, true, '0.1.0'],
    ['an unchanged contract may not move its version', '0.1.1', () => undefined, false, '0.1.0'],
    ['an added method needs a minor bump', '0.1.0', addMethod, false, '0.2.0'],
    ['an added method with a minor bump passes', '0.2.0', addMethod, true, '0.2.0'],
    ['an added method may not skip a minor version', '0.3.0', addMethod, false, '0.2.0'],
    ['a removed method needs a major bump', '0.2.0', removeMethod, false, '1.0.0'],
    ['a removed method with a major bump passes', '1.0.0', removeMethod, true, '1.0.0'],
    ['a documentation change needs a patch bump', '0.1.0', editSummary, false, '0.1.1'],
    ['a documentation change with a patch bump passes', '0.1.1', editSummary, true, '0.1.1'],
  ];
  for (const [title, version, edit, ok, expected] of cases) {
    it(`${title} (${version}, expected ${expected})`, function () {
      const { released, head } = scenario(version, edit);
      const verdict = checkVersion(head, released);
      expect(verdict.ok, verdict.message).to.equal(ok);
      expect(verdict.expected).to.equal(expected);
    });
  }

  it('tells exactly what to do when new methods arrive without a bump', function () {
    const { released, head } = scenario('0.1.0', addMethod);
    expect(checkVersion(head, released).message).to.equal(
      "openrpc.json's info.version is 0.1.0, but the changes since the released 0.1.0 (0 breaking, 1 non-breaking, 0 informational) " +
        'call for a minor bump: set info.version to 0.2.0 (also in the example result of rpc.discover, which quotes it) ' +
        'and "x-since": "0.2.0" on the methods added since, then `npm run generate`. ' +
        '`npm run contract:diff` lists the changes.',
    );
  });

  it('refuses a version that is not MAJOR.MINOR.PATCH', function () {
    const { released, head } = scenario('0.2');
    expect(checkVersion(head, released)).to.include({ ok: false, message: 'info.version "0.2" is not MAJOR.MINOR.PATCH' });
  });
});

describe('docs/api-changelog.md', function () {
  it('is up to date with contract/released/ and openrpc.json (run `npm run generate` if this fails)', function () {
    let text: string;
    try {
      text = readFileSync(path.join(root, CHANGELOG_FILE), 'utf8');
    } catch {
      throw new Error(`${CHANGELOG_FILE} is missing; run \`npm run generate\``);
    }
    if (text !== renderChangelog(releases, current)) throw new Error(`${CHANGELOG_FILE} is stale; run \`npm run generate\``);
    expect(text.startsWith(CHANGELOG_HEADER + '\n')).to.equal(true);
  });

  it('lists the changes of each release, newest first, and the unreleased ones on top', function () {
    const { released, head } = scenario('0.2.0', addMethod);
    const second: Release = { version: '0.2.0', file: 'contract/released/openrpc-0.2.0.json', doc: head };
    const next = structuredClone(head);
    (next.info as Json).version = '1.0.0';
    removeMethod(next);
    const text = renderChangelog([...released, second], next);
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).to.deep.equal(['Unreleased (1.0.0, a major change from 0.2.0)', '0.2.0', '0.1.0']);
    expect(text).to.include('- `eth_chainIdAgain` `name`: method added');
    expect(text).to.match(/### Breaking\n\n- `eth_chainId` `name`: method removed/);
    expect(text).to.include(`The first released contract: ${(released[0]!.doc.methods as Json[]).length} methods.`);
  });
});
