// One version everywhere: package.json's is the node's (web3_clientVersion), its contract's (openrpc.json's
// info.version, which the playground and the SDKs show) and the SDKs' own packages'.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageVersion, projectRoot } from '../../src/contract.js';
import { clientVersion } from '../../src/methods/client-version.js';

const root = projectRoot();
const json = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>;

describe('one version everywhere', function () {
  const version = json('package.json').version as string;

  it("is package.json's, which the node reports as evm-node/v<version>", function () {
    expect(packageVersion()).to.equal(version);
    expect(clientVersion()).to.equal(`evm-node/v${version}`);
  });

  it("is the contract's info.version, and every example quoting the client version quotes it", function () {
    const contract = readFileSync(join(root, 'openrpc.json'), 'utf8');
    expect((JSON.parse(contract) as { info: { version: string } }).info.version).to.equal(version);
    const quoted = [...contract.matchAll(/evm-node\/v(\d+\.\d+\.\d+)/g)].map((m) => m[1]);
    expect(quoted).to.have.length.greaterThan(0);
    expect(new Set(quoted)).to.deep.equal(new Set([version]));
  });

  it("is the TypeScript and Python SDKs' package version", function () {
    expect(json('clients/typescript/package.json').version).to.equal(version);
    expect(/^version = "([^"]+)"$/m.exec(readFileSync(join(root, 'clients/python/pyproject.toml'), 'utf8'))?.[1]).to.equal(version);
  });
});
