// The generator's list of the methods viem's actions call (which decides what the viem extension adds) must match
// the viem this project installs: read from its public and wallet actions, and its WebSocket transport.
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { VIEM_ACTION_METHODS } from '../../scripts/generator/viem-methods.js';

const viemRoot = path.dirname(createRequire(import.meta.url).resolve('viem/package.json'));
const METHOD_LITERAL = /['"]((?:eth|wallet|personal|net|web3|txpool|evm|debug|anvil|hardhat)_[A-Za-z0-9_]+)['"]/g;

function methodsCalledIn(files: string[]): Set<string> {
  const found = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(METHOD_LITERAL)) found.add(match[1]!);
  }
  found.delete('eth_subscription'); // the notification's method, not a call
  return found;
}

describe("viem's actions (the viem extension covers the rest)", function () {
  it('call exactly the methods the generator lists', function () {
    const dirs = ['public', 'wallet'].map((d) => path.join(viemRoot, '_esm', 'actions', d));
    const files = dirs.flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.js')).map((f) => path.join(d, f)));
    files.push(path.join(viemRoot, '_esm', 'clients', 'transports', 'webSocket.js'));
    const called = methodsCalledIn(files);
    const listed = new Set(VIEM_ACTION_METHODS);
    expect([...called].filter((m) => !listed.has(m)).sort(), 'called by viem, missing from scripts/generator/viem-methods.ts').to.deep.equal([]);
    expect([...listed].filter((m) => !called.has(m)).sort(), 'listed in scripts/generator/viem-methods.ts, no longer called by viem').to.deep.equal([]);
  });
});
