#!/usr/bin/env node
// The contract tools' entry: `evm-node contract …` in a checkout (the node's CLI hands the command here) and
// `node dist/tools/contract/main.js …` (the npm scripts contract:diff, contract:lint, contract:release).
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ContractUsageError, runContractCommand } from './cli.js';

/** Runs `contract …` (argv without the word `contract`) and sets the exit status: 2 for a bad command line. */
export function main(argv: string[]): void {
  try {
    process.exitCode = runContractCommand(argv, { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) });
  } catch (error) {
    if (!(error instanceof ContractUsageError)) throw error;
    process.stderr.write(`evm-node: ${error.message}\n`);
    process.exitCode = 2;
  }
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
