#!/usr/bin/env node
import { ConfigError, HELP, parseCommand, type NodeConfig } from './config.js';
import { ContractUsageError, runContractCommand } from './contract/cli.js';
import { ImportError } from './producer/importer.js';
import { applyImport, describeImport, importChainFiles, readImportPlan, type ImportPlan } from './import-chain.js';
import { createLogger, type Logger } from './log.js';
import { startNode, type RunningNode } from './node.js';
import { DataDirRefused, StorageFault } from './storage/storage-fault.js';
import { banner } from './terminal/banner.js';
import { ListenRefused } from './transport/listen-failure.js';

/** Where the terminal's lines go: stdout, as anvil prints them, unless --silent or a level below info. */
function terminalOutput(config: NodeConfig): ((text: string) => void) | undefined {
  if (config.silent || config.logLevel === 'error' || config.logLevel === 'warn') return undefined;
  return (text) => {
    if (process.stdout.writable) process.stdout.write(text);
  };
}

async function start(argv: string[]): Promise<void> {
  // The contract tools take flags of their own, so they are dispatched before the node's flags are parsed.
  if (argv[0] === 'contract') {
    process.exitCode = runContractCommand(argv.slice(1), { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) });
    return;
  }
  const { command, config, help, positionals } = parseCommand(argv);
  if (help) {
    process.stdout.write(HELP);
    return;
  }
  if (command === 'import') {
    const summary = await importChainFiles(config, positionals, { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY });
    process.stdout.write(describeImport(summary));
    return;
  }
  const log = createLogger(config.silent ? 'error' : config.logLevel);
  // Read before serving, so a missing or unreadable chain file stops the start with its reason.
  const plan = config.importFiles.length > 0 ? await readImportPlan(config.importFiles, config.forkchoice) : undefined;
  // A reader that goes away (`evm-node | head`) ends the terminal's output, not the node.
  process.stdout.on('error', () => undefined);
  const node = await startNode(config, log, { terminal: terminalOutput(config) });
  const shutdown = (signal: string) => {
    log.info(`${signal}: shutting down`);
    node.close().then(
      () => process.exit(0),
      (error) => {
        log.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  // Printed only once the signal handlers are in place: a script that stops the node as soon as it
  // reads the URL must get a clean shutdown, not the default SIGTERM death.
  if (!config.silent) process.stdout.write(banner(node));
  if (plan !== undefined) await importWhileServing(node, plan, log);
}

/** Imports in the miner's turn, so no block is built meanwhile; the node keeps answering reads. */
async function importWhileServing(node: RunningNode, plan: ImportPlan, log: Logger): Promise<void> {
  const { chain, miner, pool, sync } = node.services;
  try {
    const summary = await miner.exclusive(() => applyImport(chain, plan, { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY }, sync));
    log.info(describeImport(summary).trimEnd());
  } catch (error) {
    if (!(error instanceof ImportError || error instanceof ConfigError || error instanceof StorageFault)) throw error;
    log.error(`import stopped: ${error.message}; serving the blocks before it`);
  }
  // Imported blocks may have spent nonces of pooled transactions.
  await pool.revalidate();
}

/** A refusal's message on one line (a library's words may span several). */
const oneLine = (message: string) => message.replace(/\s*\n\s*/g, ' ').trim();

// Exit codes (README, --help): 2 for a bad command line, 1 for a start the machine refused.
start(process.argv.slice(2)).catch((error) => {
  if (error instanceof ContractUsageError) {
    process.stderr.write(`evm-node: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`evm-node: ${oneLine(error.message)}\n`);
    process.exit(2);
  }
  if (error instanceof DataDirRefused || error instanceof StorageFault || error instanceof ListenRefused) {
    process.stderr.write(`evm-node: ${oneLine(error.message)}\n`);
    process.exit(1);
  }
  if (error instanceof ImportError) {
    process.stderr.write(`\nevm-node: import stopped: ${error.message}\nthe blocks before it stay imported\n`);
    process.exit(1);
  }
  process.stderr.write(`evm-node: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
