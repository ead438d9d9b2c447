#!/usr/bin/env node
// The CLI's entry. It runs cli-main.js from dist/bundle/ (scripts/bundle.mjs writes it after each build): the
// same compiled code and the same (patched) packages in a few files instead of ~350 modules, which halves the
// node's start-up (~270 → ~150 ms to the first answer). A bundle that is missing or older than the last
// compile is refused, not passed over: the node runs one build of itself, and says which.
//
// `evm-node contract …` goes to the contract tools' own entry (tools/contract/main.ts, tsc's output): the
// project's API-review tool lives beside the node, not in it, and an installed package holds the node only.
import './memory-tuning.js';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = (url: URL) => statSync(fileURLToPath(url), { throwIfNoEntry: false })?.mtimeMs;

if (process.argv[2] === 'contract') {
  const tools = new URL('../tools/contract/main.js', import.meta.url);
  if (built(tools) === undefined) {
    process.stderr.write('evm-node: the contract tools review changes to openrpc.json in a checkout of evm-node (`npm ci` there); this installation holds the node only\n');
    process.exitCode = 1;
  } else {
    ((await import(tools.href)) as { main(argv: string[]): void }).main(process.argv.slice(3));
  }
} else {
  const bundle = new URL('../bundle/cli-main.js', import.meta.url);
  const bundled = built(bundle);
  const compiled = built(new URL('../.tsbuildinfo', import.meta.url));
  if (bundled === undefined || (compiled !== undefined && bundled < compiled)) {
    process.stderr.write(`evm-node: ${fileURLToPath(bundle)} is ${bundled === undefined ? 'missing' : 'older than the last compile'}: run \`npm run build\`\n`);
    process.exitCode = 1;
  } else {
    await import(bundle.href);
  }
}
