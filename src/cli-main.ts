// The command line: what `evm-node ARGS` does (src/cli.ts loads this module, from the bundle when it is current).
import { parseCommand } from './command-line.js';
import { ConfigError, type NodeConfig } from './config.js';
import { HELP } from './flags.js';
import type { ImportPlan } from './import-chain.js';
import { createLogger, type Logger } from './log.js';
import { collectWhenIdle, letYoungGenerationGrow } from './memory-tuning.js';
import type { RunningNode } from './node.js';
import { DataDirRefused, StorageFault } from './storage/storage-fault.js';
import { ListenRefused } from './transport/listen-failure.js';
import { ForkUnavailable } from './fork/unavailable.js';

// What a command needs is imported when it runs, so `--help` and the commands that do not start a
// node load none of it, and `start` loads neither the contract tools nor the importer unless asked.

/** Where the terminal's lines go: stdout, as anvil prints them, unless --silent or a level below info. */
function terminalOutput(config: NodeConfig): ((text: string) => void) | undefined {
  if (config.silent || config.logLevel === 'error' || config.logLevel === 'warn') return undefined;
  return (text) => {
    if (process.stdout.writable) process.stdout.write(text);
  };
}

async function start(argv: string[]): Promise<void> {
  const { command, config, help, positionals } = parseCommand(argv);
  if (help) {
    process.stdout.write(HELP);
    return;
  }
  if (command === 'import') {
    letYoungGenerationGrow();
    const [{ describeImport, importChainFiles }, { ImportError }] = await Promise.all([import('./import-chain.js'), import('./producer/importer.js')]);
    try {
      const summary = await importChainFiles(config, positionals, { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY });
      process.stdout.write(describeImport(summary));
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      process.stderr.write(`\nevm-node: import stopped: ${error.message}\nthe blocks before it stay imported\n`);
      process.exitCode = 1;
    }
    return;
  }
  const log = createLogger(config.silent ? 'error' : config.logLevel, config.json);
  // Read before serving, so a missing or unreadable chain file stops the start with its reason.
  const plan = config.importFiles.length > 0 ? await (await import('./import-chain.js')).readImportPlan(config.importFiles, config.forkchoice) : undefined;
  // A reader that goes away (`evm-node | head`) ends the terminal's output, not the node.
  process.stdout.on('error', () => undefined);
  const [{ startNode }, { banner, jsonBanner }] = await Promise.all([import('./node.js'), import('./banner.js')]);
  const node = await startNode(config, log, { terminal: terminalOutput(config) });
  // Held small through start-up (memory-tuning.ts, which the CLI's entry loaded first: in the bundle this
  // import is a second copy of it, and setting its flags again changes nothing).
  letYoungGenerationGrow();
  collectWhenIdle();
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
  if (!config.silent) process.stdout.write(config.json ? jsonBanner(node) : banner(node));
  if (plan !== undefined) await importWhileServing(node, plan, log);
}

/** Imports in the miner's turn, so no block is built meanwhile; the node keeps answering reads. */
async function importWhileServing(node: RunningNode, plan: ImportPlan, log: Logger): Promise<void> {
  const { chain, miner, pool, sync } = node.services;
  const [{ applyImport, describeImport }, { ImportError }] = await Promise.all([import('./import-chain.js'), import('./producer/importer.js')]);
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
  if (error instanceof ConfigError) {
    process.stderr.write(`evm-node: ${oneLine(error.message)}\n`);
    process.exit(2);
  }
  if (error instanceof DataDirRefused || error instanceof StorageFault || error instanceof ListenRefused || error instanceof ForkUnavailable) {
    process.stderr.write(`evm-node: ${oneLine(error.message)}\n`);
    process.exit(1);
  }
  process.stderr.write(`evm-node: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
