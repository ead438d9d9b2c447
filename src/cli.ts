#!/usr/bin/env node
// The CLI's entry. It runs cli-main.js from dist/bundle/ (scripts/bundle.mjs writes it after each build): the
// same compiled code and the same (patched) packages in a few files instead of ~350 modules, which halves the
// node's start-up (~270 → ~150 ms to the first answer). A bundle that is missing or older than the last
// compile is refused, not passed over: the node runs one build of itself, and says which.
import './memory-tuning.js';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../bundle/cli-main.js', import.meta.url);
const built = (url: URL) => statSync(fileURLToPath(url), { throwIfNoEntry: false })?.mtimeMs;
const bundled = built(bundle);
const compiled = built(new URL('../.tsbuildinfo', import.meta.url));
if (bundled === undefined || (compiled !== undefined && bundled < compiled)) {
  process.stderr.write(`evm-node: ${fileURLToPath(bundle)} is ${bundled === undefined ? 'missing' : 'older than the last compile'}: run \`npm run build\`\n`);
  process.exitCode = 1;
} else {
  await import(bundle.href);
}
